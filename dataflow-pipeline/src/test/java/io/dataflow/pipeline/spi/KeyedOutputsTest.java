package io.dataflow.pipeline.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A batch of outputs in columns: the same outputs as objects, and reuse of the columns. */
class KeyedOutputsTest {
  private static final RowLayout LAYOUT = RowLayout.of("n", "s");

  private static Row row(long n, String s) {
    Row r = LAYOUT.newRow();
    r.setInt(0, n);
    if (s != null) {
      r.setStr(1, s);
    }
    return r;
  }

  /** Catches: a column read or a materialised output that differs from the row added. */
  @Test
  void columnsAndObjectsHoldWhatWasAdded() {
    KeyedOutputs.Builder b = new KeyedOutputs.Builder(LAYOUT, 2); // grows past its capacity
    for (int i = 0; i < 5; i++) {
      b.add("k" + i, 10 + i, i % 3, 100 + i, row(i * 7, i % 2 == 0 ? "x" + i : null));
    }
    KeyedOutputs batch = b.build();
    assertThat(batch).hasSize(5);
    assertThat(b.size()).isZero();
    for (int i = 0; i < 5; i++) {
      assertThat(batch.key(i)).isEqualTo("k" + i);
      assertThat(batch.tick(i)).isEqualTo(10 + i);
      assertThat(batch.partition(i)).isEqualTo(i % 3);
      assertThat(batch.offset(i)).isEqualTo(100 + i);
      assertThat(batch.kind(i, 0)).isEqualTo(Kind.INT);
      assertThat(batch.bits(i, 0)).isEqualTo(i * 7L);
      assertThat(batch.value(i, 1)).isEqualTo(i % 2 == 0 ? Value.of("x" + i) : Value.NOVAL);
      KeyedOutput o = batch.get(i);
      assertThat(o.key()).isEqualTo("k" + i);
      assertThat(o.tick()).isEqualTo(10 + i);
      assertThat(o.layout()).isSameAs(LAYOUT);
      assertThat(o.row().getInt(0)).isEqualTo(i * 7L);
      assertThat(o.row().ref(1)).isEqualTo(i % 2 == 0 ? "x" + i : null);
    }
    assertThatThrownBy(() -> batch.key(5)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> batch.bits(0, 2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  /**
   * Catches: a reused batch's columns leaking an earlier batch's values (a string where the
   * new output has none).
   */
  @Test
  void reusedColumnsHoldOnlyTheNewBatch() {
    KeyedOutputs.Builder b = new KeyedOutputs.Builder(LAYOUT, 4);
    b.add("a", 0, 0, 0, row(1, "old"));
    b.add("b", 0, 0, 1, row(2, "old"));
    KeyedOutputs first = b.build();
    b.reuse(first);
    b.add("c", 1, 0, 2, row(3, null));
    KeyedOutputs second = b.build();
    assertThat(second).hasSize(1);
    assertThat(second.key(0)).isEqualTo("c");
    assertThat(second.bits(0, 0)).isEqualTo(3);
    assertThat(second.ref(0, 1)).isNull();
    assertThat(second.value(0, 1)).isEqualTo(Value.NOVAL);
  }

  /** Catches: a sink of the list form that gets the reusable columns instead of a copy. */
  @Test
  void theListFormGetsItsOwnOutputs() {
    AtomicReference<List<KeyedOutput>> got = new AtomicReference<>();
    KeyedSink sink = new KeyedSink() {
      @Override
      public void send(List<KeyedOutput> outputs, Acknowledgement ack) {
        got.set(outputs);
      }

      @Override
      public void close() {}
    };
    KeyedOutputs.Builder b = new KeyedOutputs.Builder(LAYOUT, 4);
    b.add("a", 0, 0, 0, row(1, null));
    KeyedOutputs batch = b.build();
    sink.send(batch, null);
    assertThat(got.get()).isNotSameAs(batch);
    List<KeyedOutput> kept = new ArrayList<>(got.get());
    b.reuse(batch);
    b.add("z", 9, 9, 9, row(99, null));
    b.build();
    assertThat(kept.get(0).key()).isEqualTo("a");
    assertThat(kept.get(0).row().getInt(0)).isEqualTo(1);
  }

  /**
   * Catches: a claimed output written at the wrong place, a claim that counts before
   * {@code addClaimed} (an unused claim must add nothing), columns lost when a claim grows the
   * batch, and a claimed output that shows an earlier output's string.
   */
  @Test
  void claimedOutputsAreWrittenInPlace() {
    KeyedOutputs.Builder b = new KeyedOutputs.Builder(LAYOUT, 2); // claims grow it
    assertThatThrownBy(() -> b.addClaimed("x", 0, 0, 0)).isInstanceOf(
        IllegalStateException.class);
    b.add("a", 0, 1, 10, row(1, "s"));
    for (int i = 0; i < 5; i++) {
      int at = b.claim();
      assertThat(at).isEqualTo(b.size() * LAYOUT.width());
      b.kindColumn()[at] = Kind.INT;
      b.bitsColumn()[at] = 100 + i;
      b.kindColumn()[at + 1] = Kind.NOVAL;
      if (i == 2) {
        continue; // not added: the next claim writes the same place
      }
      b.addClaimed("c" + i, i, 2, 20 + i);
    }
    b.add("z", 9, 3, 30, row(9, null));
    KeyedOutputs batch = b.build();
    assertThat(batch).hasSize(6);
    assertThat(batch.key(0)).isEqualTo("a");
    assertThat(batch.value(0, 1)).isEqualTo(Value.of("s"));
    int[] claimed = {0, 1, 3, 4};
    for (int j = 0; j < claimed.length; j++) {
      int i = claimed[j];
      assertThat(batch.key(j + 1)).isEqualTo("c" + i);
      assertThat(batch.tick(j + 1)).isEqualTo(i);
      assertThat(batch.partition(j + 1)).isEqualTo(2);
      assertThat(batch.offset(j + 1)).isEqualTo(20 + i);
      assertThat(batch.value(j + 1, 0)).isEqualTo(Value.of(100 + i));
      assertThat(batch.value(j + 1, 1)).isEqualTo(Value.NOVAL);
      assertThat(batch.get(j + 1).row().ref(1)).isNull();
    }
    assertThat(batch.key(5)).isEqualTo("z");
    assertThat(batch.bits(5, 0)).isEqualTo(9);
    b.reuse(batch);
    int at = b.claim();
    assertThat(at).isZero();
    b.kindColumn()[0] = Kind.INT;
    b.bitsColumn()[0] = 7;
    b.kindColumn()[1] = Kind.NOVAL;
    b.addClaimed("r", 0, 0, 0);
    KeyedOutputs again = b.build();
    assertThat(again).hasSize(1);
    assertThat(again.value(0, 0)).isEqualTo(Value.of(7));
    assertThat(again.ref(0, 1)).isNull();
  }
}
