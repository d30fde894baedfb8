package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.dataflow.core.SourceLocation;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated broken specs (unknown name, cycle, self-reference, missing or duplicate equation,
 * type error, syntax error) are rejected with a {@link SpecException} that says what is wrong
 * and where: the reported location is the one the defect pins down
 * (docs/language.md#compile-errors), and the message starts with {@code file:line:column}. Catches:
 * an error reported at a neighbouring token or the wrong line, an error that escapes as another
 * exception type, and a defect that compiles.
 */
class BrokenSpecTest {
  static LongStream seeds() {
    return Seeds.seeds(600);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aBrokenSpecIsRejectedWithItsLocation(long seed) {
    Seeds.check(seed, c -> {
      BrokenSpec broken = c.note("broken", new SpecGenerator(seed).broken());
      SpecException e = catchThrowableOfType(SpecException.class,
          () -> DataflowProgram.compile("broken.dsrv", broken.text()));
      assertThat(e).as("compiling must fail with a SpecException").isNotNull();
      c.note("error", e.getMessage());
      SourceLocation at = e.location();
      assertThat(at).isNotNull();
      assertThat(e.getMessage()).startsWith("broken.dsrv:" + at.line() + ":" + at.column()
          + ": ");
      assertThat(e.diagnostics()).as("the diagnostics").anySatisfy(d -> {
        assertThat(d.message()).contains(broken.fragment());
        assertThat(d.location().line()).as("line").isEqualTo(broken.line());
        if (broken.column() > 0) {
          assertThat(d.location().column()).as("column").isEqualTo(broken.column());
        }
      });
    });
  }
}
