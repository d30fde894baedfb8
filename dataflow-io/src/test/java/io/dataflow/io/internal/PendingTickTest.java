package io.dataflow.io.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A reused tick keeps each name once, at its first position, with its last value, whatever the
 * ticks before it assigned: the names of the tick before, in the same order, are found by
 * identity ({@code put}'s usual case), anything else by comparing names. References (strings)
 * are dropped at {@code clear()}, which skips the clearing when none was put.
 */
class PendingTickTest {
  @Test
  void aNameAssignedAgainAfterTheOrderChangedIsKeptOnce() {
    PendingTick t = new PendingTick();
    t.put("x", Kind.INT, 1, null);
    t.put("y", Kind.INT, 2, null);
    t.clear();
    // y now takes x's position; y again must find it there, not take the old y's position.
    t.put("y", Kind.INT, 3, null);
    t.put("y", Kind.INT, 4, null);
    t.put("x", Kind.INT, 5, null);
    assertThat(t.size()).isEqualTo(2);
    assertThat(t.toMap()).containsExactly(Map.entry("y", Value.of(4)), Map.entry("x", Value.of(5)));
  }

  @Test
  void reusedTicksMatchAMapOfTheirAssignments() {
    Random random = new Random(21);
    // Names as the byte readers give them (one instance per name) and equal copies, as the
    // general paths give them.
    String[] names = {"a", "b", "c", "d", "e", "f"};
    for (int run = 0; run < 200; run++) {
      PendingTick t = new PendingTick();
      String[] order = names.clone();
      for (int tick = 0; tick < 50; tick++) {
        t.clear();
        Map<String, Value> expected = new LinkedHashMap<>();
        if (random.nextInt(4) == 0) { // a new order now and then, else the same as before
          for (int i = order.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            String s = order[i];
            order[i] = order[j];
            order[j] = s;
          }
        }
        int n = random.nextInt(9);
        for (int k = 0; k < n; k++) {
          String name = random.nextInt(5) == 0
              ? order[random.nextInt(order.length)] // out of order, or again
              : order[k % order.length];
          if (random.nextInt(6) == 0) {
            name = new String(name); // equal, not the same instance
          }
          long v = random.nextInt(1000);
          if (random.nextInt(3) == 0) { // a reference: a later Int in its place drops it
            t.put(name, Kind.STR, 0, "s" + v);
            expected.put(name, Value.of("s" + v));
          } else {
            t.put(name, Kind.INT, v, null);
            expected.put(name, Value.of(v));
          }
        }
        assertThat(t.size()).isEqualTo(expected.size());
        assertThat(t.toMap()).containsExactlyEntriesOf(expected);
        for (int i = 0; i < t.refs.length; i++) { // no reference but a string value's
          if (i >= t.size() || t.kinds[i] != Kind.STR) {
            assertThat(t.refs[i]).isNull();
          }
        }
      }
    }
  }
}
