package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.OperatorState;
import io.dataflow.core.snapshot.StreamState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A snapshot read from bytes is restored from its tape by the walk plans (docs/decisions.md,
 * "A snapshot read from bytes is restored from its decoded values"); a stream whose state
 * does not take that path is loaded from its record. Whatever the state of the same program's
 * snapshot (every operator left out, repeated, renamed, with a value changed in kind or range,
 * one value fewer or more), the restore from the tape does what the restore from the records
 * does: the same exception (no monitor) or the same restored state, continuing alike.
 */
class SnapshotTapeRestoreTest {
  private static final String SPEC = "in x: Int\nin b: Bool\n"
      + "out z = default(z[1], 0) + x\n"
      + "out w = update(init(x, 0), x) + default(x[2], 5)\n"
      + "out c = default(when(b), false)\n";

  @Test
  void everyChangedOperatorStateRestoresAsFromTheRecords() {
    DataflowProgram program = DataflowProgram.compile("t.dsrv", SPEC);
    for (DataflowMonitor.Options options : List.of(DataflowMonitor.Options.DEFAULT.withFused(true),
        DataflowMonitor.Options.DEFAULT.withFused(false))) {
      DataflowMonitor m = DataflowMonitor.create(program, options);
      for (int i = 0; i < 5; i++) {
        m.evaluate(Map.of("x", Value.of(i * 1_000_003L - 7), "b", Value.of(i % 2 == 0)));
      }
      MonitorSnapshot snap = m.snapshot();
      int variants = 0;
      int refused = 0;
      for (MonitorSnapshot changed : variants(snap)) {
        variants++;
        MonitorSnapshot read = MonitorSnapshot.fromBytes(changed.toBytes());
        assertThat(read.tape()).isNotNull();
        Throwable fromRecords = catchThrowable(
            () -> DataflowMonitor.restore(program, changed, options));
        Throwable fromTape = catchThrowable(() -> DataflowMonitor.restore(program, read, options));
        String what = changed.streams().toString();
        if (fromRecords != null) {
          refused++;
          assertThat(fromTape).as(what).isNotNull().isExactlyInstanceOf(fromRecords.getClass())
              .hasMessage(fromRecords.getMessage());
          continue;
        }
        assertThat(fromTape).as(what).isNull();
        DataflowMonitor a = DataflowMonitor.restore(program, changed, options).monitor();
        DataflowMonitor b = DataflowMonitor.restore(program, read, options).monitor();
        assertThat(b.snapshot().toBytes()).as(what).isEqualTo(a.snapshot().toBytes());
        Map<String, Value> row = Map.of("x", Value.of(11), "b", Value.TRUE);
        assertThat(outcome(b, row)).as(what).isEqualTo(outcome(a, row));
      }
      assertThat(variants).isGreaterThan(40);
      assertThat(refused).isGreaterThan(10).isLessThan(variants);
    }
  }

  /** The snapshot with one operator of one stream changed in every way listed above. */
  private static List<MonitorSnapshot> variants(MonitorSnapshot s) {
    List<MonitorSnapshot> out = new ArrayList<>();
    List<StreamState> streams = s.streams();
    for (int i = 0; i < streams.size(); i++) {
      StreamState st = streams.get(i);
      List<OperatorState> ops = st.operators();
      for (int j = 0; j < ops.size(); j++) {
        OperatorState op = ops.get(j);
        List<OperatorState> without = new ArrayList<>(ops);
        without.remove(j);
        out.add(with(s, i, without));
        List<OperatorState> twice = new ArrayList<>(ops);
        twice.add(j, op);
        out.add(with(s, i, twice));
        out.add(with(s, i, replace(ops, j, new OperatorState("Nothing", op.values()))));
        List<Value> fewer = new ArrayList<>(op.values());
        if (!fewer.isEmpty()) {
          fewer.remove(fewer.size() - 1);
          out.add(with(s, i, replace(ops, j, new OperatorState(op.kind(), fewer))));
        }
        List<Value> more = new ArrayList<>(op.values());
        more.add(Value.of(1));
        out.add(with(s, i, replace(ops, j, new OperatorState(op.kind(), more))));
        for (int k = 0; k < op.values().size(); k++) {
          for (Value v : List.of(Value.TRUE, Value.of(2), Value.of(1L << 40), Value.NOVAL,
              Value.of("s"))) {
            List<Value> values = new ArrayList<>(op.values());
            values.set(k, v);
            out.add(with(s, i, replace(ops, j, new OperatorState(op.kind(), values))));
          }
        }
      }
      out.add(with(s, i, List.of()));
    }
    return out;
  }

  private static List<OperatorState> replace(List<OperatorState> ops, int j, OperatorState op) {
    List<OperatorState> out = new ArrayList<>(ops);
    out.set(j, op);
    return out;
  }

  private static MonitorSnapshot with(MonitorSnapshot s, int i, List<OperatorState> ops) {
    List<StreamState> streams = new ArrayList<>(s.streams());
    StreamState st = streams.get(i);
    streams.set(i, new StreamState(st.name(), st.role(), st.declaredType(), st.fingerprint(),
        st.current(), st.lastPresent(), st.historyDepth(), st.history(), ops));
    return new MonitorSnapshot(s.formatVersion(), s.programName(), s.definitionKey(),
        s.nextTick(), s.revision(), s.failure(), streams);
  }

  private static String outcome(DataflowMonitor m, Map<String, Value> row) {
    try {
      return String.valueOf(m.evaluate(row));
    } catch (MonitorException e) {
      return "failed: " + e.getMessage();
    }
  }
}
