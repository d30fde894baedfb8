package io.dataflow.monitor.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The helper the generated batch code calls to decide whether a batch is dense (the batch loop
 * itself is tested through the monitor, in {@code io.dataflow.monitor.TickColumnsTest}).
 */
class DenseCheckTest {
  /**
   * The dense check reads eight kinds at a time, backwards: it finds the last tick of another
   * kind in its range, whatever the range, the tail and the other kinds before it.
   */
  @Test
  void theDenseCheckFindsTheLastOtherKindInItsRangeAndNothingOutside() {
    byte[] kinds = new byte[40];
    java.util.Arrays.fill(kinds, io.dataflow.core.Kind.INT);
    for (int from = 0; from < 12; from++) {
      for (int to = from; to <= 40; to++) {
        assertThat(FusedCompiler.afterLastOther(kinds, from, to, io.dataflow.core.Kind.INT))
            .isEqualTo(from);
        for (int odd = 0; odd < 40; odd++) {
          kinds[odd] = odd % 2 == 0 ? io.dataflow.core.Kind.NOVAL : io.dataflow.core.Kind.FLOAT;
          kinds[odd / 2] = io.dataflow.core.Kind.DEFERRED; // another one, at or before it
          int last = odd >= from && odd < to ? odd + 1
              : odd / 2 >= from && odd / 2 < to ? odd / 2 + 1 : from;
          assertThat(FusedCompiler.afterLastOther(kinds, from, to, io.dataflow.core.Kind.INT))
              .as("[%d, %d) with other kinds at %d and %d", from, to, odd / 2, odd)
              .isEqualTo(last);
          kinds[odd] = io.dataflow.core.Kind.INT;
          kinds[odd / 2] = io.dataflow.core.Kind.INT;
        }
      }
    }
  }
}
