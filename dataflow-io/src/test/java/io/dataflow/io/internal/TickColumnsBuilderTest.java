package io.dataflow.io.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Kind;
import io.dataflow.core.TickBatch;
import io.dataflow.core.TickColumns;
import org.junit.jupiter.api.Test;

/**
 * The builder fills the columns of a batch the runtime handed back ({@link TickBatch#evaluated})
 * instead of allocating new ones, and they hold nothing of the batch before; columns not handed
 * back, or of a narrower shape, are never reused.
 */
class TickColumnsBuilderTest {
  private static PendingTick tick(Object... nameValue) {
    PendingTick t = new PendingTick();
    for (int i = 0; i < nameValue.length; i += 2) {
      t.put((String) nameValue[i], Kind.INT, (Long) nameValue[i + 1], null);
    }
    return t;
  }

  @Test
  void handedBackColumnsAreFilledAgainEmpty() {
    TickColumnsBuilder b = new TickColumnsBuilder(4);
    b.add(tick("x", 1L, "y", 2L));
    b.add(tick("x", 3L, "y", 4L));
    TickBatch first = b.take(); // the next batch was started in new columns
    TickColumns columns = first.columns();
    first.evaluated();
    b.add(tick("x", 9L, "y", 9L));
    b.take(); // starts the one after in the columns handed back

    b.add(tick("y", 5L)); // x unassigned: must not read the 1 of the batch before
    b.addEmpty(1);
    TickBatch third = b.take();
    assertThat(third.columns()).isSameAs(columns);
    assertThat(third.size()).isEqualTo(2);
    assertThat(third.ticks().get(0).asMap()).containsOnlyKeys("y");
    assertThat(third.ticks().get(0).asMap().get("y").toString()).isEqualTo("Int(5)");
    assertThat(third.ticks().get(1).asMap()).isEmpty();
  }

  @Test
  void columnsNotHandedBackAreNeverReused() {
    TickColumnsBuilder b = new TickColumnsBuilder(4);
    b.add(tick("x", 1L));
    TickBatch first = b.take();
    b.add(tick("x", 2L));
    b.take();
    b.add(tick("x", 3L));
    TickBatch third = b.take();
    assertThat(third.columns()).isNotSameAs(first.columns());
    assertThat(first.ticks().get(0).asMap().get("x").toString()).isEqualTo("Int(1)");
  }

  @Test
  void columnsOfANarrowerShapeAreDropped() {
    TickColumnsBuilder b = new TickColumnsBuilder(4);
    b.add(tick("x", 1L));
    TickBatch first = b.take();
    first.evaluated();
    b.add(tick("x", 2L, "y", 3L)); // widens the batch being built: two columns now
    TickBatch second = b.take(); // the first's columns are one name short: dropped
    second.evaluated();
    b.add(tick("x", 4L, "y", 5L));
    b.take(); // starts the next batch in the second's columns
    b.add(tick("x", 6L));
    TickBatch fourth = b.take();
    assertThat(fourth.columns()).isSameAs(second.columns()).isNotSameAs(first.columns());
    assertThat(fourth.ticks().get(0).asMap()).containsOnlyKeys("x");
  }

  @Test
  void aBatchWhoseTicksWereMadeIsNotHandedBack() {
    TickColumnsBuilder b = new TickColumnsBuilder(4);
    b.add(tick("x", 1L));
    TickBatch first = b.take();
    first.ticks();
    first.evaluated();
    b.add(tick("x", 2L));
    b.take();
    b.add(tick("x", 3L));
    assertThat(b.take().columns()).isNotSameAs(first.columns());
  }
}
