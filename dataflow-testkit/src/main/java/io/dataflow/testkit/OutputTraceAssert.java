package io.dataflow.testkit;

import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;

/**
 * Fluent assertions on an {@link OutputTrace}; failures show the expected and actual trace in
 * the text output format, so the diff reads like the CLI's output.
 */
public final class OutputTraceAssert extends AbstractAssert<OutputTraceAssert, OutputTrace> {
  OutputTraceAssert(OutputTrace actual) {
    super(actual, OutputTraceAssert.class);
  }

  /** Entry point: {@code assertThat(harness.trace()).hasLines("z[0] = Int(1)")}. */
  public static OutputTraceAssert assertThat(OutputTrace actual) {
    return new OutputTraceAssert(actual);
  }

  /** The trace is exactly these lines of the text format. */
  public OutputTraceAssert hasLines(String... lines) {
    isNotNull();
    Assertions.assertThat(actual.text()).as("output trace")
        .isEqualTo(String.join("\n", lines) + (lines.length == 0 ? "" : "\n"));
    return this;
  }

  /** The trace equals the given text (the content of an {@code .expected} file). */
  public OutputTraceAssert hasText(String expected) {
    isNotNull();
    Assertions.assertThat(actual.text()).as("output trace").isEqualTo(expected);
    return this;
  }

  /** The trace has no present output at all. */
  public OutputTraceAssert isEmpty() {
    isNotNull();
    Assertions.assertThat(actual.text()).as("output trace").isEmpty();
    return this;
  }

  /**
   * The stream's present values, in tick order, are exactly these (Java values are converted:
   * {@code 1} is an Int, {@code 1.5} a Float, {@code "a"} a Str, {@code true} a Bool).
   */
  public OutputTraceAssert hasValues(String stream, Object... values) {
    isNotNull();
    List<Value> expected = new ArrayList<>();
    for (Object o : values) {
      expected.add(Values.of(o));
    }
    Assertions.assertThat(new ArrayList<>(actual.values(stream).values()))
        .as("values of %s in%n%s", stream, actual.text()).isEqualTo(expected);
    return this;
  }

  /** The stream's present values by tick are exactly these (tick, value, tick, value, ...). */
  public OutputTraceAssert hasValuesAt(String stream, Object... tickValuePairs) {
    isNotNull();
    Map<Long, Value> expected = new LinkedHashMap<>();
    for (int i = 0; i < tickValuePairs.length; i += 2) {
      expected.put(((Number) tickValuePairs[i]).longValue(), Values.of(tickValuePairs[i + 1]));
    }
    Assertions.assertThat(actual.values(stream)).as("values of %s in%n%s", stream,
        actual.text()).containsExactlyEntriesOf(expected);
    return this;
  }

  /** The stream has no present value at the tick. */
  public OutputTraceAssert hasNoValueAt(String stream, long tick) {
    isNotNull();
    Assertions.assertThat(actual.valueAt(stream, tick)).as("%s[%d] in%n%s", stream, tick,
        actual.text()).isEmpty();
    return this;
  }
}
