package io.dataflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport.CheckpointOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The first-fatal gate's checkpoint decision, shared by the runtime and the pipeline. */
class FailureGateTest {
  final List<String> warnings = new ArrayList<>();
  final AtomicInteger setAside = new AtomicInteger();

  CheckpointOutcome decide(FailureGate gate, boolean hasCheckpoint) {
    return gate.checkpointOutcome(hasCheckpoint, why -> {
      setAside.incrementAndGet();
      return true;
    }, warnings::add);
  }

  /** Catches: touching a checkpoint the run never wrote, or one a resumable failure keeps. */
  @Test
  void aCheckpointIsSetAsideOnlyForAReasonThatDoesNotKeepItResumable() {
    FailureGate none = new FailureGate();
    none.fail("runtime", new IllegalStateException("bug"));
    assertThat(decide(none, false)).isEqualTo(CheckpointOutcome.NONE);
    assertThat(decide(new FailureGate(), true)).isEqualTo(CheckpointOutcome.KEPT);
    FailureGate sink = new FailureGate();
    sink.fail("sink", new java.io.IOException("down"));
    assertThat(decide(sink, true)).isEqualTo(CheckpointOutcome.KEPT);
    FailureGate cancel = new FailureGate();
    cancel.cancel("maintenance");
    assertThat(decide(cancel, true)).isEqualTo(CheckpointOutcome.KEPT);
    assertThat(setAside).hasValue(0);
    FailureGate bug = new FailureGate();
    bug.fail("runtime", new IllegalStateException("bug"));
    assertThat(decide(bug, true)).isEqualTo(CheckpointOutcome.SET_ASIDE);
    assertThat(setAside).hasValue(1);
  }

  /**
   * Catches: evidence set aside after a durable mutation started (a restart would then repeat
   * or lose track of the mutation), and a point of no return that is not reported.
   */
  @Test
  void pastThePointOfNoReturnNothingIsSetAside() {
    FailureGate gate = new FailureGate();
    assertThat(gate.pastPointOfNoReturn()).isFalse();
    gate.pointOfNoReturn();
    gate.fail("runtime", new IllegalStateException("bug"));
    assertThat(gate.pastPointOfNoReturn()).isTrue();
    assertThat(decide(gate, true)).isEqualTo(CheckpointOutcome.KEPT);
    assertThat(setAside).hasValue(0);
    assertThat(warnings).singleElement().asString().contains("point of no return");
  }

  /** Catches: a set-aside that fails, reported as done. */
  @Test
  void aSetAsideThatFailsKeepsTheCheckpointAndSaysSo() {
    FailureGate gate = new FailureGate();
    gate.fail("runtime", new IllegalStateException("bug"));
    CheckpointOutcome o = gate.checkpointOutcome(true, why -> {
      throw new java.io.IOException("read-only");
    }, warnings::add);
    assertThat(o).isEqualTo(CheckpointOutcome.KEPT);
    assertThat(warnings).singleElement().asString().contains("read-only");
  }
}
