package io.dataflow.runs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {
  @Test
  void sortsKeysAtEveryLevelAndEscapesMinimally() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("z", "1");
    inner.put("a", "line\nbreak \"q\" \\ \u0001");
    Map<String, Object> outer = new LinkedHashMap<>();
    outer.put("b", inner);
    outer.put("a", null);
    assertThat(CanonicalJson.write(outer))
        .isEqualTo("{\"a\":null,\"b\":{\"a\":\"line\\nbreak \\\"q\\\" \\\\ \\u0001\",\"z\":\"1\"}}");
  }

  @Test
  void equalMapsInAnyInsertionOrderGiveEqualText() {
    Map<String, Object> one = new LinkedHashMap<>();
    one.put("x", "1");
    one.put("y", "2");
    Map<String, Object> two = new LinkedHashMap<>();
    two.put("y", "2");
    two.put("x", "1");
    assertThat(CanonicalJson.write(one)).isEqualTo(CanonicalJson.write(two));
  }
}
