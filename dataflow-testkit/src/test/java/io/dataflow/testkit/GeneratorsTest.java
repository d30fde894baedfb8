package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Value;
import io.dataflow.io.TraceReader;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import io.dataflow.monitor.TypingMode;
import io.dataflow.reconfig.RequestDecoder;
import io.dataflow.reconfig.RequestException;
import io.dataflow.testkit.RequestGenerator.GeneratedRequest;
import io.dataflow.testkit.RequestGenerator.Kind;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The testkit's generators, shrinker and seed helper do what they promise. */
class GeneratorsTest {
  static LongStream seeds() {
    return Seeds.seeds(150);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void theSameSeedGivesTheSameCases(long seed) {
    assertThat(new SpecGenerator(seed).next().text())
        .isEqualTo(new SpecGenerator(seed).next().text());
    assertThat(new SpecGenerator(seed).broken()).isEqualTo(new SpecGenerator(seed).broken());
    GeneratedSpec spec = new SpecGenerator(seed).next();
    assertThat(new TraceGenerator(seed).next(spec)).isEqualTo(new TraceGenerator(seed).next(spec));
    assertThat(new RequestGenerator(seed).valid(spec).json())
        .isEqualTo(new RequestGenerator(seed).valid(spec).json());
  }

  /**
   * Every rendering and variant compiles; the annotated text compiles strictly; a relayout
   * keeps the definition key (so replacing by it is RetainExact) and the output order, while a
   * changed stream changes the key.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyRenderingAndVariantCompiles(long seed) {
    Seeds.check(seed, c -> {
      SpecGenerator gen = new SpecGenerator(seed).risky(0.2);
      GeneratedSpec spec = c.note("spec", gen.next());
      DataflowProgram p = DataflowProgram.compile("g", spec.text());
      c.note("strict", spec.annotatedText());
      DataflowProgram.compile("g", spec.annotatedText(), TypingMode.STRICT);
      DataflowProgram.compile("g", spec.unannotatedText(), TypingMode.GRADUAL);
      assertThat(names(p)).isEqualTo(spec.outputNames());
      DataflowProgram relaid = DataflowProgram.compile("g", spec.withLayoutSeed(seed + 1).text());
      assertThat(relaid.definitionKey()).isEqualTo(p.definitionKey());
      assertThat(names(relaid)).isEqualTo(spec.outputNames());
      GeneratedSpec changed = c.note("changed", gen.changeOneStream(spec));
      DataflowProgram.compile("g", changed.annotatedText(), TypingMode.STRICT);
      assertThat(DataflowProgram.compile("g", changed.text()).definitionKey())
          .isNotEqualTo(p.definitionKey());
      GeneratedSpec added = c.note("added", gen.addOutput(spec));
      assertThat(names(DataflowProgram.compile("g", added.annotatedText(), TypingMode.STRICT)))
          .isEqualTo(added.outputNames()).hasSize(spec.outputNames().size() + 1);
      GeneratedSpec removed = c.note("removed", gen.removeOutput(spec));
      assertThat(names(DataflowProgram.compile("g", removed.annotatedText(), TypingMode.STRICT)))
          .isEqualTo(removed.outputNames()).hasSize(spec.outputNames().size() - 1);
    });
  }

  /** The bounds a spec promises hold for every Int and Str output over a generated trace. */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void outputsStayWithinTheirBounds(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
      DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("g", spec.text()));
      for (Map<String, Value> row : new TraceGenerator(~seed).length(40, 40).next(spec)) {
        m.evaluate(row).forEach((name, v) -> {
          long bound = spec.stream(name).orElseThrow().bound();
          if (v instanceof Value.Int i) {
            assertThat(Math.abs(i.value())).as(name).isLessThanOrEqualTo(bound);
          } else if (v instanceof Value.Str s) {
            assertThat((long) s.value().length()).as(name).isLessThanOrEqualTo(bound);
          }
        });
      }
    });
  }

  /** Both renderings read back as the same ticks, with requests at their place. */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void renderedTracesReadBackTickForTick(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = new SpecGenerator(seed).next();
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(seed).next(spec));
      int at = (int) (seed % (trace.size() + 1));
      Map<Integer, List<String>> requests = Map.of(at, List.of("{specification: 'in x'}"));
      List<Object> expected = new ArrayList<>(trace);
      expected.add(at, "request");
      String plain = c.note("plain", TraceGenerator.render(trace, requests));
      assertThat(read(plain)).isEqualTo(expected);
      String varied = c.note("varied", new TraceGenerator(seed).renderVaried(trace, requests));
      assertThat(read(varied)).isEqualTo(expected);
    });
  }

  /** Valid requests decode to their specification; broken ones are refused as labelled. */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void requestsDecodeAsLabelled(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = new SpecGenerator(seed).next();
      RequestGenerator gen = new RequestGenerator(seed);
      for (Kind kind : Kind.values()) {
        GeneratedRequest r = c.note(kind.name(), gen.of(kind, spec));
        switch (kind) {
          case NOT_COMPILING:
            assertThatThrownBy(() -> DataflowProgram.compile("r",
                RequestDecoder.decode(r.json(), "gen").specification()))
                .isInstanceOf(SpecException.class);
            break;
          case UNKNOWN_FIELD:
          case BLANK_SPECIFICATION:
          case MISSING_SPECIFICATION:
          case MALFORMED:
            assertThatThrownBy(() -> RequestDecoder.decode(r.json(), "gen"))
                .isInstanceOf(RequestException.class);
            break;
          default:
            assertThat(RequestDecoder.decode(r.json(), "gen").specification())
                .isEqualTo(r.specification()).isEqualTo(r.replacement().text());
        }
      }
    });
  }

  @Test
  void theShrinkerDropsTicksAndAssignmentsAndSimplifiesValues() {
    List<Map<String, Value>> trace = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      trace.add(Values.row("x", i % 10, "y", i, "w", "text"));
    }
    // Fails when a tick with x = 7 is followed by a tick with y present.
    List<Map<String, Value>> minimal = Shrinker.shrinkTrace(trace, t -> {
      boolean seven = false;
      for (Map<String, Value> row : t) {
        if (seven && row.containsKey("y")) {
          return true;
        }
        seven |= Value.of(7).equals(row.get("x"));
      }
      return false;
    });
    assertThat(minimal).containsExactly(Values.row("x", 7), Values.row("y", 0));
  }

  @Test
  void theShrinkerDropsStreamsAndSimplifiesExpressions() {
    GeneratedSpec spec = new SpecGenerator(3).maxComputed(6).next();
    GeneratedSpec minimal = Shrinker.shrinkSpec(spec, s -> !s.outputs().isEmpty()
        && DataflowProgram.compile("s", s.text()).outputs().width() > 0);
    assertThat(minimal.computed()).singleElement()
        .satisfies(s -> assertThat(s.expression()).matches("0|0\\.0|false|\"\""));
  }

  @Test
  void aFailureNamesTheSeedHowToReplayItAndTheCase() {
    AtomicInteger described = new AtomicInteger();
    Seeds.check(7, c -> c.noteLazily("costly", described::incrementAndGet));
    assertThat(described).as("lazy notes are computed only on failure").hasValue(0);
    assertThatThrownBy(() -> Seeds.check(42, c -> {
      c.note("spec", "in x\nout z\nz = x");
      c.noteLazily("costly", described::incrementAndGet);
      assertThat(1).isEqualTo(2);
    })).isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("seed=42 failed (replay with -Ddataflow.seed=42): ")
        .hasMessageContaining("--- spec ---\nin x\nout z\nz = x\n")
        .hasMessageContaining("--- costly ---\n1\n")
        .hasCauseInstanceOf(AssertionError.class);
  }

  @Test
  void oneSeedCanBeReplayed() {
    String before = System.getProperty(Seeds.SEED_PROPERTY);
    String base = System.getProperty(Seeds.BASE_PROPERTY);
    try {
      System.clearProperty(Seeds.SEED_PROPERTY);
      System.clearProperty(Seeds.BASE_PROPERTY);
      assertThat(Seeds.seeds(3)).containsExactly(0L, 1L, 2L);
      System.setProperty(Seeds.SEED_PROPERTY, "1234");
      assertThat(Seeds.seeds(1000)).containsExactly(1234L);
    } finally {
      restore(Seeds.SEED_PROPERTY, before);
      restore(Seeds.BASE_PROPERTY, base);
    }
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }

  private static List<String> names(DataflowProgram p) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < p.outputs().width(); i++) {
      out.add(p.outputs().name(i));
    }
    return out;
  }

  /** The items of a trace file: each tick's values, and "request" for a request line. */
  private static List<Object> read(String text) {
    List<Object> items = new ArrayList<>();
    TraceReader reader = new TraceReader("t", new StringReader(text));
    for (TraceReader.Item item = reader.next(); item != null; item = reader.next()) {
      items.add(item instanceof TraceReader.Tick t ? t.values() : "request");
    }
    return items;
  }
}
