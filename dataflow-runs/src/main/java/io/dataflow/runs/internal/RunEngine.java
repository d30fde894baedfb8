package io.dataflow.runs.internal;

import io.dataflow.core.Clock;
import io.dataflow.runs.FaultPoints;
import io.dataflow.runs.PublicationResponse;
import io.dataflow.runs.PublicationTarget;
import io.dataflow.runs.Resolution;
import io.dataflow.runs.RunRecord;
import io.dataflow.runs.RunRequest;
import io.dataflow.runs.RunResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What {@code DurableRuns} delegates to: the ledger, the clock, the lease and the fault hook.
 * Thread-safety: safe from any thread (every call works in its own ledger transactions).
 */
public final class RunEngine implements AutoCloseable {
  private RunEngine() {}

  /** Opens and migrates the ledger. */
  public static RunEngine open(String url, Properties properties, Clock clock, Duration lease,
      FaultPoints faults) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Starts or replays a run. */
  public RunResult start(RunRequest request, PublicationTarget target) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Every run, newest first. */
  public List<RunRecord> list() {
    throw new UnsupportedOperationException("not yet");
  }

  /** One run. */
  public RunRecord show(String runId) {
    throw new UnsupportedOperationException("not yet");
  }

  /** The run of a key. */
  public Optional<RunRecord> findByKey(String key) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Inspects a target for a run's publication. */
  public Optional<PublicationResponse> inspect(String runId, PublicationTarget target) {
    throw new UnsupportedOperationException("not yet");
  }

  /** An operator's resolution. */
  public RunRecord resolve(String runId, Resolution as, String evidence) {
    throw new UnsupportedOperationException("not yet");
  }

  /** Closes expired attempts. */
  public List<RunRecord> reconcile() {
    throw new UnsupportedOperationException("not yet");
  }

  /** The ledger URL without credentials. */
  public String ledgerDescription() {
    throw new UnsupportedOperationException("not yet");
  }

  @Override
  public void close() {}
}
