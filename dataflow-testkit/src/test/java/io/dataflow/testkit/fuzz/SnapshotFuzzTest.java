package io.dataflow.testkit.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.io.SnapshotJson;
import java.util.Arrays;

/**
 * Fuzz target for the snapshot reader (docs/snapshots.md): any bytes either read as a snapshot
 * or fail with a {@link SnapshotException} naming the offset, never with anything else. What
 * reads writes back as the same bytes (the format has one encoding per snapshot) and survives
 * the JSON rendering.
 *
 * <p>The seeds (SnapshotFuzzTestInputs) hold a monitor's snapshot in each format version (1,
 * 2, 3, 4, 5) and hand-made version 3, 4 and 5 ones with string hashes, a failure and every
 * value kind, so the fuzzer starts from every reader.
 *
 * <p>In the normal build this runs in Jazzer's regression mode (the seed inputs only);
 * {@code mvn -B -Pfuzz -pl dataflow-testkit test -Dtest='SnapshotFuzzTest'} fuzzes it.
 */
class SnapshotFuzzTest {
  @FuzzTest(maxDuration = "2m")
  void snapshotsReadOrFailWithASnapshotException(byte[] data) {
    if (data == null) {
      return;
    }
    MonitorSnapshot s;
    try {
      s = MonitorSnapshot.fromBytes(data);
    } catch (SnapshotException e) {
      if (e.offset() < 0 || !e.getMessage().contains("offset")) {
        throw new AssertionError("an error without an offset: " + e.getMessage(), e);
      }
      return;
    }
    if (!Arrays.equals(s.toBytes(), data)) {
      throw new AssertionError("a snapshot read does not write back the same bytes");
    }
    if (!SnapshotJson.fromJson(SnapshotJson.toJson(s)).equals(s)) {
      throw new AssertionError("the JSON rendering lost something");
    }
  }
}
