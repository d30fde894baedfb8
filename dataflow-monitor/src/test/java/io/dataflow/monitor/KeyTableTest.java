package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link KeyTable} behaves as a {@code LinkedHashMap} in insertion order. */
class KeyTableTest {

  /** Keys of several shapes: dense and strided longs (which share spread slots), others. */
  private static Object key(SplittableRandom r, int shape) {
    int n = r.nextInt(300);
    return switch (shape) {
      case 0 -> (long) n;
      case 1 -> (long) n << 32; // the same low bits: long probe runs
      case 2 -> (long) n * 65536 + (n & 3);
      case 3 -> r.nextBoolean() ? (Object) (long) n : "k" + n;
      default -> r.nextBoolean() ? (Object) (long) n : (Object) n; // Integer 5 is not Long 5
    };
  }

  @Test
  void randomOperationsMatchALinkedHashMap() {
    for (int seed = 0; seed < 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int shape = seed % 5;
      KeyTable table = new KeyTable();
      Map<Object, Object> expected = new LinkedHashMap<>();
      for (int op = 0; op < 4000; op++) {
        Object k = key(r, shape);
        int what = r.nextInt(10);
        if (what < 5) {
          Object v = "v" + op;
          assertThat(table.put(k, v)).isEqualTo(expected.put(k, v));
        } else if (what < 8) {
          assertThat(table.remove(k)).isEqualTo(expected.remove(k));
        } else if (what == 8) {
          long cut = r.nextInt(4000);
          table.values().removeIf(v -> Integer.parseInt(((String) v).substring(1)) < cut);
          expected.values().removeIf(v -> Integer.parseInt(((String) v).substring(1)) < cut);
        } else {
          for (Map.Entry<Object, Object> e : table.entrySet()) {
            if (r.nextInt(4) == 0) {
              e.setValue("s" + op);
              expected.put(e.getKey(), "s" + op);
            }
          }
        }
        assertThat(table.get(k)).isEqualTo(expected.get(k));
        assertThat(table.containsKey(k)).isEqualTo(expected.containsKey(k));
        assertThat(table.size()).isEqualTo(expected.size());
      }
      assertThat(new ArrayList<>(table.entrySet())).containsExactlyElementsOf(
          expected.entrySet());
      for (Object k : expected.keySet()) {
        assertThat(table.get(k)).isEqualTo(expected.get(k));
      }
    }
  }

  @Test
  void manyKeysKeepTheirOrderThroughGrowthAndCompaction() {
    KeyTable table = new KeyTable();
    List<Object> order = new ArrayList<>();
    for (long k = 0; k < 100_000; k++) {
      table.put(k * 7919, k);
      order.add(k * 7919);
    }
    for (long k = 0; k < 100_000; k += 3) {
      table.remove(k * 7919);
    }
    order.removeIf(k -> (Long) k / 7919 % 3 == 0);
    for (Iterator<Object> it = table.keySet().iterator(); it.hasNext(); ) {
      if ((Long) it.next() / 7919 % 4 != 0) { // most keys gone: the next growth compacts
        it.remove();
      }
    }
    order.removeIf(k -> (Long) k / 7919 % 4 != 0);
    assertThat(table.size()).isEqualTo(order.size());
    for (long k = 0; k < 200_000; k++) {
      table.put(-k - 1, k); // a new key comes last, through compaction and growth
      order.add(-k - 1);
    }
    assertThat(new ArrayList<>(table.keySet())).containsExactlyElementsOf(order);
    assertThat(table.get(4 * 7919L)).isEqualTo(4L);
    assertThat(table.get(7919L)).isNull();
    assertThat(table.get(0L)).isNull();
  }

  @Test
  void aNewKeyDuringIterationFailsFastAndNullsAreRejected() {
    KeyTable table = new KeyTable();
    table.put(1L, "a");
    table.put("b", "b");
    Iterator<Map.Entry<Object, Object>> it = table.entrySet().iterator();
    it.next();
    table.put(1L, "c"); // a known key: fine
    it.next();
    table.put(2L, "d");
    assertThatThrownBy(it::next).isInstanceOf(ConcurrentModificationException.class);
    assertThatThrownBy(() -> table.put(null, "x")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> table.put(3L, null)).isInstanceOf(NullPointerException.class);
    assertThat(table.keySet()).containsExactly(1L, "b", 2L);
  }
}
