package io.dataflow.testkit.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dataflow.io.TraceException;
import io.dataflow.io.TraceReader;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import io.dataflow.reconfig.RequestDecoder;
import io.dataflow.reconfig.RequestException;
import java.io.IOException;
import java.io.StringReader;

/**
 * Fuzz targets for every parser a user's text reaches. Each may only fail with its own typed
 * exception (a located, one-line error), never with anything else.
 *
 * <p>In the normal build these run in Jazzer's regression mode: the seed inputs only, in
 * milliseconds. {@code mvn -Pfuzz -pl dataflow-testkit test} fuzzes each target for a while.
 */
class ParserFuzzTest {
  @FuzzTest(maxDuration = "2m")
  void specificationsCompileOrFailWithALocatedSpecException(String text) {
    if (text == null) {
      return; // Jazzer's default input; the API takes no null text
    }
    try {
      DataflowProgram p = DataflowProgram.compile("fuzz.dsrv", text);
      DataflowMonitor.create(p);
    } catch (SpecException e) {
      if (e.location() == null || e.getMessage().contains("\n")) {
        throw new AssertionError("an unlocated or multi-line error: " + e.getMessage(), e);
      }
    }
  }

  @FuzzTest(maxDuration = "2m")
  void tracesReadOrFailWithALocatedTraceException(String text) throws IOException {
    if (text == null) {
      return;
    }
    try (TraceReader r = new TraceReader("fuzz.input", new StringReader(text))) {
      int items = 0;
      while (r.next() != null && items++ < 10_000) {
        // read everything; gap ticks are produced one at a time
      }
    } catch (TraceException e) {
      if (e.location() == null) {
        throw new AssertionError("an unlocated error: " + e.getMessage(), e);
      }
    }
  }

  @FuzzTest(maxDuration = "2m")
  void requestsDecodeOrFailWithARequestException(String text) {
    if (text == null) {
      return;
    }
    try {
      RequestDecoder.decode(text, "fuzz");
    } catch (RequestException e) {
      // the only allowed failure
    }
  }
}
