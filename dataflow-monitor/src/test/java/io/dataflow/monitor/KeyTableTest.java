package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link KeyTable} against a {@code LinkedHashMap} (first-arrival order), with colliding keys. */
class KeyTableTest {
  /** A key whose hash is its value modulo a few: many keys share a home slot. */
  private record Colliding(int id, int buckets) {
    @Override
    public int hashCode() {
      return id % buckets;
    }
  }

  @ParameterizedTest(name = "buckets={0}")
  @ValueSource(ints = {1, 3, 64, Integer.MAX_VALUE})
  void behavesAsAnInsertionOrderedMap(int buckets) {
    SplittableRandom r = new SplittableRandom(buckets);
    KeyTable table = new KeyTable();
    Map<Object, Object> model = new LinkedHashMap<>();
    int range = buckets == 1 ? 40 : 3000;
    for (int step = 0; step < 40_000; step++) {
      Object key = r.nextBoolean() ? new Colliding(r.nextInt(range), buckets)
          : Long.valueOf(r.nextInt(range));
      switch (r.nextInt(10)) {
        case 0, 1, 2 -> assertThat(table.remove(key)).isEqualTo(model.remove(key));
        case 3 -> {
          // expiry's pattern: scan in order, then remove what was picked
          List<Object> picked = new ArrayList<>();
          for (int slot : table.ordered()) {
            if (r.nextInt(4) == 0) {
              picked.add(table.keyAt(slot));
            }
          }
          for (Object k : picked) {
            assertThat(table.remove(k)).isEqualTo(model.remove(k));
          }
        }
        default -> {
          Object state = step;
          assertThat(table.put(key, state)).isEqualTo(model.put(key, state));
        }
      }
      assertThat(table.size()).isEqualTo(model.size());
      assertThat(table.get(key)).isEqualTo(model.get(key));
      if (step % 997 == 0) {
        List<Object> keys = new ArrayList<>();
        for (int slot : table.ordered()) {
          keys.add(table.keyAt(slot));
          assertThat(table.stateAt(slot)).isEqualTo(model.get(table.keyAt(slot)));
        }
        assertThat(keys).containsExactlyElementsOf(model.keySet());
      }
    }
  }
}
