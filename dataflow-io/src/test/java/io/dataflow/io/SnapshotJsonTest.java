package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.Failure;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.OperatorState;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.core.snapshot.StreamState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON rendering of snapshots: typed values, nothing lost, bad text refused. */
class SnapshotJsonTest {
  private static final List<Value> EVERY = List.of(Value.of(1), Value.of(1.0), Value.of(-0.0),
      Value.of(Double.NaN), Value.of(Double.longBitsToDouble(0x7ff8000000000001L)),
      Value.of(Double.POSITIVE_INFINITY), Value.of(Double.NEGATIVE_INFINITY),
      Value.of(Long.MIN_VALUE), Value.of(Double.MIN_VALUE), Value.of("\"\n\u0000😀"),
      Value.TRUE, Value.UNIT, Value.NOVAL, Value.DEFERRED,
      Value.list(Value.of(1), Value.list(Value.of(2.5))), Value.map("z", Value.of(1),
          "a", Value.map("b", Value.list())));

  private static MonitorSnapshot sample(Failure failure) {
    return new MonitorSnapshot(1, "p.dsrv", "k", 3, new MonitorRevision(1, 2), failure,
        List.of(new StreamState("x", "input", "Int", "f1", Value.of(1), Value.NOVAL, 2,
            List.of(Value.of(1), Value.NOVAL), List.of()),
            new StreamState("z", "output", null, "f2", Value.DEFERRED, Value.of("s"), 0,
                List.of(), List.of(new OperatorState("Strict;f=0", EVERY)))));
  }

  @Test
  void binaryToJsonToBinaryIsByteIdentical() {
    for (Failure f : new Failure[] {null, new Failure(2, null, "boom"),
        new Failure(2, "z", "division by zero")}) {
      for (MonitorSnapshot s : new MonitorSnapshot[] {sample(f), inVersion2(sample(f)),
          inVersion3(sample(f)), inVersion4(sample(f)), inVersion5(sample(f))}) {
        MonitorSnapshot back = SnapshotJson.fromJson(SnapshotJson.toJson(s));
        assertThat(back).isEqualTo(s);
        assertThat(back.toBytes()).isEqualTo(s.toBytes());
      }
    }
  }

  private static MonitorSnapshot inVersion2(MonitorSnapshot s) {
    return new MonitorSnapshot(2, s.programName(), "0123456789abcdef0123456789abcdef",
        s.nextTick(), s.revision(), s.failure(), s.streams());
  }

  private static MonitorSnapshot inVersion3(MonitorSnapshot s) {
    return new MonitorSnapshot(3, s.programName(), "0123456789abcdef", s.nextTick(),
        s.revision(), s.failure(), s.streams());
  }

  private static MonitorSnapshot inVersion4(MonitorSnapshot s) {
    return new MonitorSnapshot(4, s.programName(), "0123456789abcdef", s.nextTick(),
        s.revision(), s.failure(), s.streams());
  }

  private static MonitorSnapshot inVersion5(MonitorSnapshot s) {
    return new MonitorSnapshot(5, s.programName(), "0123456789abcdef", s.nextTick(),
        s.revision(), s.failure(), s.streams());
  }

  @Test
  void aSnapshotKeepsItsFormatVersionThroughJson() {
    for (MonitorSnapshot s : new MonitorSnapshot[] {sample(null), inVersion2(sample(null)),
        inVersion3(sample(null)), inVersion4(sample(null)), inVersion5(sample(null))}) {
      MonitorSnapshot back = SnapshotJson.fromJson(SnapshotJson.toJson(s));
      assertThat(back.formatVersion()).isEqualTo(s.formatVersion());
      // The version: a u16 after 8 magic bytes (1 to 3), a byte after 4 (4 on).
      int at = s.formatVersion() <= 3 ? 9 : 4;
      assertThat(back.toBytes()[at]).isEqualTo((byte) s.formatVersion());
    }
  }

  @Test
  void valuesAreTypedSoIntAndFloatStayApart() {
    String json = SnapshotJson.toJson(sample(null));
    assertThat(json).contains("\"Int\" : 1").contains("\"Float\" : 1.0")
        .contains("\"Float\" : -0.0").contains("\"Float\" : \"NaN\"")
        .contains("\"FloatBits\" : \"7ff8000000000001\"").contains("\"NoVal\" : null")
        .contains("\"Deferred\" : null").contains("\"Unit\" : null");
    assertThat(json.indexOf("\"formatVersion\"")).isLessThan(json.indexOf("\"streams\""));
  }

  @Test
  void textThatIsNotASnapshotIsASnapshotException() {
    assertThatThrownBy(() -> SnapshotJson.fromJson("{")).isInstanceOf(SnapshotException.class);
    assertThatThrownBy(() -> SnapshotJson.fromJson("{\"formatVersion\": 1}"))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("missing field");
    String json = SnapshotJson.toJson(sample(null));
    String fractionalInt = json.replaceFirst("\"Int\" : 1(?=\\s)", "\"Int\" : 1.5");
    assertThat(fractionalInt).isNotEqualTo(json);
    assertThatThrownBy(() -> SnapshotJson.fromJson(fractionalInt))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("64-bit integer");
    int future = MonitorSnapshot.FORMAT_VERSION + 1;
    assertThatThrownBy(() -> SnapshotJson.fromJson(json.replace("\"formatVersion\" : 1",
        "\"formatVersion\" : " + future))).isInstanceOf(SnapshotException.class)
        .hasMessageContaining("format version " + future);
    assertThatThrownBy(() -> SnapshotJson.fromJson(json.replace("\"Str\" : \"s\"",
        "\"Mystery\" : 1"))).isInstanceOf(SnapshotException.class)
        .hasMessageContaining("Mystery");
  }
}
