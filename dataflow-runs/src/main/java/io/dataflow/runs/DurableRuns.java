package io.dataflow.runs;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.dataflow.runs.internal.RunEngine;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Durable bounded runs over a recovery ledger (docs/durable-runs.md): the entry of
 * {@code dataflow-runs}.
 *
 * <ul>
 *   <li>{@link #start} runs a {@link RunRequest} to its end in the caller's thread, as one fenced
 *       {@link Attempt} holding a lease on the {@link Clock}; a replay of its idempotency key
 *       returns the existing run ({@link RunResult#replayed()}).
 *   <li>{@link RunMode#ATOMIC}: the result stays ephemeral; {@link RunMode#FORWARD_RECOVERY}:
 *       it is published to a {@link PublicationTarget} ({@link DirectoryTarget},
 *       {@link JdbcTableTarget}) at most once.
 *   <li>{@link #list}, {@link #show}, {@link #findByKey}, {@link #inspect} and {@link #resolve}
 *       are the operator's view; {@link #reconcile} closes expired attempts.
 *   <li>{@link FaultPoints} is the seam crash tests halt or throw at.
 * </ul>
 *
 * <pre>{@code
 * try (DurableRuns runs = DurableRuns.open(DurableRuns.DEFAULT_LEDGER_URL)) {
 *   RunResult r = runs.start(RunRequest.builder()
 *       .specification("nightly.dsrv", text).input(RunInput.traceFile(path))
 *       .idempotencyKey("nightly-2024-06-01").mode(RunMode.FORWARD_RECOVERY).build(),
 *       DirectoryTarget.of(Path.of("/srv/verdicts")));
 *   System.out.println(r.run().runId() + " " + r.run().status());
 * }
 * }</pre>
 *
 * <p>Thread-safety: safe from any thread; several threads or processes may share one ledger
 * (the ledger's transactions and the fencing tokens keep them apart).
 */
public final class DurableRuns implements AutoCloseable {
  /**
   * The default ledger: an H2 database in the file {@code ./dataflow-runs.mv.db}, created on
   * first use. Two processes using it at once need {@code ;AUTO_SERVER=TRUE} or PostgreSQL.
   */
  public static final String DEFAULT_LEDGER_URL = "jdbc:h2:file:./dataflow-runs";

  /** The default lease of an attempt: renewed by each of its writes. */
  public static final Duration DEFAULT_LEASE = Duration.ofMinutes(2);

  private final RunEngine engine;

  private DurableRuns(RunEngine engine) {
    this.engine = engine;
  }

  /**
   * Opens the ledger at {@code jdbcUrl} ({@code jdbc:h2:...} or {@code jdbc:postgresql:...}),
   * creating or migrating its schema, with the system clock and the default lease.
   *
   * @throws LedgerException when the database cannot be reached or migrated
   */
  public static DurableRuns open(String jdbcUrl) {
    return builder().ledger(jdbcUrl).open();
  }

  /** A builder for a ledger with a clock, a lease or fault points of your choice. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs {@code request} in {@link RunMode#ATOMIC} mode, or replays its idempotency key.
   *
   * @throws IllegalArgumentException when the request is in forward-recovery mode (it needs a
   *     target)
   * @throws io.dataflow.monitor.SpecException when the specification does not compile (nothing
   *     is recorded)
   * @throws IdempotencyConflictException when the key belongs to another request
   * @throws FencedException when a newer attempt took the run over while this one ran
   */
  public RunResult start(RunRequest request) {
    return start(request, null);
  }

  /**
   * Runs {@code request}, publishing to {@code target} in {@link RunMode#FORWARD_RECOVERY}
   * mode ({@code target} must be null in atomic mode), or replays its idempotency key: an
   * existing run is returned as it is (unresolved included) and never published again; only a
   * run whose last attempt expired before dispatch is retried, under a new fenced attempt.
   *
   * @return the run after this call; its status says how it ended
   * @throws IllegalArgumentException when the mode and the target do not fit
   * @throws io.dataflow.monitor.SpecException when the specification does not compile (nothing
   *     is recorded)
   * @throws IdempotencyConflictException when the key belongs to another request
   * @throws FencedException when a newer attempt took the run over while this one ran
   * @throws LedgerException when the ledger fails
   */
  public RunResult start(RunRequest request, PublicationTarget target) {
    Objects.requireNonNull(request, "request");
    if (request.mode() == RunMode.FORWARD_RECOVERY && target == null) {
      throw new IllegalArgumentException("a forward-recovery run needs a publication target");
    }
    if (request.mode() == RunMode.ATOMIC && target != null) {
      throw new IllegalArgumentException("an atomic run publishes nothing: use"
          + " RunMode.FORWARD_RECOVERY with a publication target");
    }
    return engine.start(request, target);
  }

  /** Every run, newest first. */
  public List<RunRecord> list() {
    return engine.list();
  }

  /**
   * The run {@code runId}, with its attempts.
   *
   * @throws UnknownRunException when the ledger has no such run
   */
  public RunRecord show(String runId) {
    return engine.show(runId);
  }

  /** The run recorded under the idempotency key {@code key}, if any. */
  public Optional<RunRecord> findByKey(String key) {
    return engine.findByKey(key);
  }

  /**
   * Asks {@code target} whether the run's publication is there, by the run's idempotency key
   * and recorded output digest: what an operator does before {@link #resolve}. Reads only.
   *
   * @return the publication's references, or empty when the sink has none
   * @throws UnknownRunException when the ledger has no such run
   * @throws RunException when the run has no output digest yet or the sink cannot be read
   */
  public Optional<PublicationResponse> inspect(String runId, PublicationTarget target) {
    return engine.inspect(runId, target);
  }

  /**
   * Records an operator's decision about an unresolved run ({@link RunStatus#OUTCOME_UNKNOWN},
   * or a running run whose lease expired after its dispatch mark), with the evidence: the run
   * becomes {@link RunStatus#SUCCEEDED} or {@link RunStatus#FAILED}, for good.
   *
   * @param evidence what the operator found (not blank): recorded as given, so it must not
   *     contain a credential
   * @throws UnknownRunException when the ledger has no such run
   * @throws RunException when the run is not unresolved
   */
  public RunRecord resolve(String runId, Resolution as, String evidence) {
    Objects.requireNonNull(as, "as");
    if (evidence == null || evidence.isBlank()) {
      throw new IllegalArgumentException("a resolution needs evidence (what the sink showed)");
    }
    return engine.resolve(runId, as, evidence);
  }

  /**
   * Closes every attempt whose lease has expired on the clock: before the dispatch mark as
   * {@link AttemptStatus#RECOVERED} (the run becomes {@link RunStatus#PENDING}, retried by the
   * next start of its key), after it as {@link AttemptStatus#ABANDONED} (the run becomes
   * {@link RunStatus#OUTCOME_UNKNOWN}). {@link #start}, {@link #list} and {@link #show} do this
   * for the runs they touch; this does it for all.
   *
   * @return the runs it changed
   */
  public List<RunRecord> reconcile() {
    return engine.reconcile();
  }

  /** The ledger's JDBC URL without credentials (what messages and {@code runs} print). */
  public String ledger() {
    return engine.ledgerDescription();
  }

  /** Releases the ledger's connections. Runs in other threads must have returned. */
  @Override
  public void close() {
    engine.close();
  }

  /** Builds a {@link DurableRuns}. Thread-safety: confined to one thread. */
  public static final class Builder {
    private String url = DEFAULT_LEDGER_URL;
    private Properties properties = new Properties();
    private Clock clock = SystemClock.INSTANCE;
    private Duration lease = DEFAULT_LEASE;
    private FaultPoints faults = FaultPoints.NONE;

    private Builder() {}

    /** The ledger's JDBC URL (default {@link #DEFAULT_LEDGER_URL}). */
    public Builder ledger(String jdbcUrl) {
      this.url = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      return this;
    }

    /**
     * The ledger's JDBC URL and connection properties ({@code user}, {@code password}, ...).
     * The password is used to connect and never recorded.
     */
    public Builder ledger(String jdbcUrl, Properties connectionProperties) {
      this.url = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      this.properties = new Properties();
      this.properties.putAll(connectionProperties);
      return this;
    }

    /** The clock leases expire on (default the system clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How long an attempt's lease lasts after each of its writes (default 2 minutes). */
    public Builder leaseDuration(Duration lease) {
      if (lease == null || lease.isNegative() || lease.isZero()) {
        throw new IllegalArgumentException("the lease must be positive, not " + lease);
      }
      this.lease = lease;
      return this;
    }

    /** The fault-point hook (default {@link FaultPoints#NONE}). */
    public Builder faultPoints(FaultPoints faults) {
      this.faults = Objects.requireNonNull(faults, "faults");
      return this;
    }

    /**
     * Opens the ledger, creating or migrating its schema.
     *
     * @throws LedgerException when the database cannot be reached or migrated
     */
    public DurableRuns open() {
      return new DurableRuns(RunEngine.open(url, properties, clock, lease, faults));
    }
  }
}
