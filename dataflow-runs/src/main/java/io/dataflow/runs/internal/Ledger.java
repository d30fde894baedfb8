package io.dataflow.runs.internal;

import io.dataflow.runs.Attempt;
import io.dataflow.runs.AttemptStatus;
import io.dataflow.runs.ExternalOutput;
import io.dataflow.runs.FencedException;
import io.dataflow.runs.Invocation;
import io.dataflow.runs.LedgerException;
import io.dataflow.runs.Provenance;
import io.dataflow.runs.PublicationResponse;
import io.dataflow.runs.Resolution;
import io.dataflow.runs.RunMode;
import io.dataflow.runs.RunRecord;
import io.dataflow.runs.RunStatus;
import io.dataflow.runs.UnknownRunException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The JDBC ledger: its schema (Flyway, {@code db/dataflow-runs}), transactions, and the reads
 * and writes of runs, attempts, checkpoints and events. Every write of an attempt goes through
 * {@link #fence}, in the same transaction, so a stale token never commits anything.
 *
 * <p>Thread-safety: safe from any thread; each transaction has its own connection. One
 * connection stays open for the ledger's lifetime so an embedded H2 database stays open between
 * transactions.
 */
public final class Ledger implements AutoCloseable {
  /** Work inside one transaction. */
  @FunctionalInterface
  public interface Work<T> {
    /** Runs with {@code c} in a transaction that commits when this returns. */
    T run(Connection c) throws SQLException;
  }

  static final String HISTORY_TABLE = "dataflow_runs_schema_history";
  private static final int RETRIES = 5;

  private final String url;
  private final Properties properties;
  private final String redacted;
  private final Connection keeper;

  private Ledger(String url, Properties properties, Connection keeper) {
    this.url = url;
    this.properties = properties;
    this.redacted = JdbcUrls.redact(url);
    this.keeper = keeper;
  }

  /**
   * Connects and migrates the schema.
   *
   * @throws LedgerException when the database cannot be reached or migrated
   */
  public static Ledger open(String url, Properties properties) {
    String redacted = JdbcUrls.redact(url);
    Connection keeper;
    try {
      keeper = DriverManager.getConnection(url, properties);
    } catch (SQLException e) {
      throw new LedgerException("cannot open the ledger " + redacted + ": "
          + clean(e.getMessage(), url, redacted), null);
    }
    try {
      durableCommits(keeper, url);
    } catch (SQLException e) {
      closeQuietly(keeper);
      throw new LedgerException("cannot make the ledger " + redacted + " durable on commit"
          + " (SET WRITE_DELAY 0): " + clean(e.getMessage(), url, redacted), null);
    }
    try {
      Flyway.configure(Ledger.class.getClassLoader())
          .dataSource(new LedgerDataSource(url, properties))
          .locations("classpath:db/dataflow-runs")
          .table(HISTORY_TABLE)
          // Flyway would record the database user in the history table: an identity in clear.
          .installedBy("dataflow-runs")
          .load()
          .migrate();
    } catch (FlywayException e) {
      closeQuietly(keeper);
      throw new LedgerException("cannot migrate the ledger " + redacted + ": "
          + clean(e.getMessage(), url, redacted), null);
    }
    return new Ledger(url, properties, keeper);
  }

  /**
   * Makes an H2 ledger write each commit to its file before the commit returns. H2 otherwise
   * flushes commits up to half a second later (WRITE_DELAY), so a process that dies right after
   * a commit (a crash, {@code Runtime.halt}) loses it, and with it the durable-mutation mark.
   * A PostgreSQL ledger is durable on commit by itself.
   */
  private static void durableCommits(Connection c, String url) throws SQLException {
    if (url.startsWith("jdbc:h2:")) {
      try (java.sql.Statement s = c.createStatement()) {
        s.execute("SET WRITE_DELAY 0");
      }
    }
  }

  /** The URL without credentials. */
  public String description() {
    return redacted;
  }

  /** The user behind the ledger's credentials (for the access digest only). */
  public String user() {
    return JdbcUrls.user(url, properties);
  }

  /**
   * Runs {@code work} in a transaction; retries it on a serialization failure, a deadlock, a
   * lock timeout or a unique-key race (the work re-reads what it decides on).
   *
   * @throws LedgerException when the database fails
   */
  public <T> T tx(Work<T> work) {
    for (int attempt = 1;; attempt++) {
      try (Connection c = DriverManager.getConnection(url, properties)) {
        c.setAutoCommit(false);
        try {
          T result = work.run(c);
          c.commit();
          return result;
        } catch (SQLException e) {
          rollbackQuietly(c);
          if (attempt < RETRIES && retryable(e)) {
            continue;
          }
          throw failed(e);
        } catch (RuntimeException | Error e) {
          rollbackQuietly(c);
          throw e;
        }
      } catch (SQLException e) {
        throw failed(e);
      }
    }
  }

  private LedgerException failed(SQLException e) {
    return new LedgerException("ledger " + redacted + ": " + clean(e.getMessage(), url, redacted)
        + " (SQL state " + e.getSQLState() + ")", e);
  }

  private static boolean retryable(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.equals("40001") || state.equals("40P01")
        || state.equals("HYT00") || state.startsWith("23"));
  }

  // ---- runs ----

  /** The columns of a new run. */
  public record NewRun(String runId, String key, RunMode mode, String specificationName,
      String definitionHash, String requestHash, String requestJson, String accessDigest,
      Provenance provenance, String target) {}

  /** Inserts a run with its first attempt, running under a lease until {@code leaseUntil}. */
  public void insertRun(Connection c, NewRun r, long now, long leaseUntil) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO dataflow_run (run_id,"
        + " idempotency_key, mode, status, specification_name, definition_hash, request_hash,"
        + " request_json, access_digest, invocation, host, process_id, library_version, target,"
        + " current_attempt, external_output, created_at, updated_at)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)")) {
      int i = 1;
      s.setString(i++, r.runId());
      s.setString(i++, r.key());
      s.setString(i++, r.mode().name());
      s.setString(i++, RunStatus.RUNNING.name());
      s.setString(i++, r.specificationName());
      s.setString(i++, r.definitionHash());
      s.setString(i++, r.requestHash());
      s.setString(i++, r.requestJson());
      s.setString(i++, r.accessDigest());
      s.setString(i++, r.provenance().invocation().name());
      s.setString(i++, r.provenance().host());
      s.setLong(i++, r.provenance().process());
      s.setString(i++, r.provenance().libraryVersion());
      s.setString(i++, r.target());
      s.setString(i++, ExternalOutput.NONE.name());
      s.setLong(i++, now);
      s.setLong(i, now);
      s.executeUpdate();
    }
    insertAttempt(c, r.runId(), 1, r.provenance(), now, leaseUntil);
    event(c, r.runId(), 1, now, "begin", "attempt 1 began (" + r.provenance().invocation()
        + " on " + r.provenance().host() + ", process " + r.provenance().process() + ")");
  }

  /** Inserts attempt {@code n} of a run, running. */
  public void insertAttempt(Connection c, String runId, int n, Provenance p, long now,
      long leaseUntil) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO dataflow_run_attempt (run_id,"
        + " attempt_no, status, invocation, host, process_id, started_at, lease_expires_at)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setString(1, runId);
      s.setInt(2, n);
      s.setString(3, AttemptStatus.RUNNING.name());
      s.setString(4, p.invocation().name());
      s.setString(5, p.host());
      s.setLong(6, p.process());
      s.setLong(7, now);
      s.setLong(8, leaseUntil);
      s.executeUpdate();
    }
  }

  /** The run id of {@code key}, locking the run's row for this transaction. */
  public Optional<String> lockByKey(Connection c, String key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT run_id FROM dataflow_run WHERE idempotency_key = ? FOR UPDATE")) {
      s.setString(1, key);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** Locks the run's row; returns its current attempt number. */
  public int lock(Connection c, String runId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT current_attempt FROM dataflow_run WHERE run_id = ? FOR UPDATE")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new UnknownRunException(runId);
        }
        return rs.getInt(1);
      }
    }
  }

  /**
   * The fencing check every write of an attempt starts with: locks the run, refuses the write
   * when a newer attempt exists or this one was closed, and renews the lease until
   * {@code leaseUntil}.
   *
   * @throws FencedException when the token is stale
   */
  public void fence(Connection c, String runId, int attempt, long leaseUntil)
      throws SQLException {
    int current = lock(c, runId);
    if (current != attempt) {
      throw new FencedException(runId, attempt, current, "attempt " + current
          + " holds the run");
    }
    AttemptStatus status = attemptStatus(c, runId, attempt);
    if (status != AttemptStatus.RUNNING) {
      throw new FencedException(runId, attempt, current, "it was closed as " + status);
    }
    try (PreparedStatement s = c.prepareStatement("UPDATE dataflow_run_attempt SET"
        + " lease_expires_at = ? WHERE run_id = ? AND attempt_no = ?")) {
      s.setLong(1, leaseUntil);
      s.setString(2, runId);
      s.setInt(3, attempt);
      s.executeUpdate();
    }
  }

  private AttemptStatus attemptStatus(Connection c, String runId, int attempt)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT status FROM dataflow_run_attempt"
        + " WHERE run_id = ? AND attempt_no = ?")) {
      s.setString(1, runId);
      s.setInt(2, attempt);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("run " + runId + " has no attempt " + attempt);
        }
        return AttemptStatus.valueOf(rs.getString(1));
      }
    }
  }

  /**
   * Sets columns of the run: {@code pairs} alternates column names (constants of this module,
   * never user text) and values; {@code updated_at} is set to {@code now}.
   */
  public void updateRun(Connection c, String runId, long now, Object... pairs)
      throws SQLException {
    StringBuilder sql = new StringBuilder("UPDATE dataflow_run SET ");
    for (int i = 0; i < pairs.length; i += 2) {
      sql.append((String) pairs[i]).append(" = ?, ");
    }
    sql.append("updated_at = ? WHERE run_id = ?");
    try (PreparedStatement s = c.prepareStatement(sql.toString())) {
      int p = 1;
      for (int i = 1; i < pairs.length; i += 2) {
        s.setObject(p++, pairs[i] instanceof Enum<?> e ? e.name() : pairs[i]);
      }
      s.setLong(p++, now);
      s.setString(p, runId);
      s.executeUpdate();
    }
  }

  /** Closes attempt {@code n} as {@code status} with {@code note}. */
  public void closeAttempt(Connection c, String runId, int n, AttemptStatus status, String note,
      long now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("UPDATE dataflow_run_attempt SET status = ?,"
        + " ended_at = ?, note = ? WHERE run_id = ? AND attempt_no = ?")) {
      s.setString(1, status.name());
      s.setLong(2, now);
      s.setString(3, truncate(note));
      s.setString(4, runId);
      s.setInt(5, n);
      s.executeUpdate();
    }
  }

  /** Appends an event to the run's history. */
  public void event(Connection c, String runId, int attempt, long now, String kind,
      String detail) throws SQLException {
    int seq;
    try (PreparedStatement s = c.prepareStatement(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM dataflow_run_event WHERE run_id = ?")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        seq = rs.getInt(1);
      }
    }
    try (PreparedStatement s = c.prepareStatement("INSERT INTO dataflow_run_event (run_id, seq,"
        + " attempt_no, at, kind, detail) VALUES (?, ?, ?, ?, ?, ?)")) {
      s.setString(1, runId);
      s.setInt(2, seq);
      s.setInt(3, attempt);
      s.setLong(4, now);
      s.setString(5, kind);
      s.setString(6, truncate(detail));
      s.executeUpdate();
    }
  }

  /** Writes the verified checkpoint of a run. */
  public void insertCheckpoint(Connection c, String runId, int attempt, EvidenceChain chain,
      long now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO dataflow_run_checkpoint (run_id,"
        + " attempt_no, definition_hash, request_hash, source_digest, output_digest, row_count,"
        + " chain_hash, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setString(1, runId);
      s.setInt(2, attempt);
      s.setString(3, chain.definitionHash());
      s.setString(4, chain.requestHash());
      s.setString(5, chain.sourceDigest());
      s.setString(6, chain.outputDigest());
      s.setLong(7, chain.rowCount());
      s.setString(8, chain.head());
      s.setLong(9, now);
      s.executeUpdate();
    }
  }

  /** What the ledger recorded before the run's end, for the evidence chain's verification. */
  public record Evidence(String definitionHash, String requestHash, String sourceDigest,
      String outputDigest, Long rowCount, String boundedResult) {}

  /** The recorded evidence of a run. */
  public Evidence evidence(Connection c, String runId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT definition_hash, request_hash,"
        + " source_digest, output_digest, row_count, bounded_result FROM dataflow_run"
        + " WHERE run_id = ?")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new UnknownRunException(runId);
        }
        long rows = rs.getLong(5);
        Long rowCount = rs.wasNull() ? null : rows;
        return new Evidence(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rowCount, rs.getString(6));
      }
    }
  }

  /** The request hash and mode a key's run was recorded with. */
  public record Pinned(String requestHash, RunMode mode) {}

  /** The pinned request of a run. */
  public Pinned pinned(Connection c, String runId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT request_hash, mode FROM dataflow_run WHERE run_id = ?")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new UnknownRunException(runId);
        }
        return new Pinned(rs.getString(1), RunMode.valueOf(rs.getString(2)));
      }
    }
  }

  // ---- reads ----

  /** The run with its attempts. */
  public RunRecord load(Connection c, String runId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(SELECT_RUN + " WHERE run_id = ?")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new UnknownRunException(runId);
        }
        return record(c, rs);
      }
    }
  }

  /** The run ids, newest first. */
  public List<String> runIds(Connection c) throws SQLException {
    List<String> ids = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(
        "SELECT run_id FROM dataflow_run ORDER BY created_at DESC, run_id");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    return ids;
  }

  /** The ids of runs whose current attempt is running with a lease expired at {@code now}. */
  public List<String> expired(Connection c, long now) throws SQLException {
    List<String> ids = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT r.run_id FROM dataflow_run r JOIN"
        + " dataflow_run_attempt a ON a.run_id = r.run_id AND a.attempt_no = r.current_attempt"
        + " WHERE a.status = 'RUNNING' AND a.lease_expires_at <= ?")) {
      s.setLong(1, now);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getString(1));
        }
      }
    }
    return ids;
  }

  /** The id of the run of {@code key}, if any (no lock). */
  public Optional<String> runIdOfKey(Connection c, String key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT run_id FROM dataflow_run WHERE idempotency_key = ?")) {
      s.setString(1, key);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  private static final String SELECT_RUN = "SELECT run_id, idempotency_key, mode, status,"
      + " specification_name, definition_hash, request_hash, access_digest, invocation, host,"
      + " process_id, library_version, target, durable_mutation_at, row_count, output_digest,"
      + " source_digest, publication_digest, publication_ref, datasource_ref,"
      + " materialization_ref, checkpoint_hash, external_output, failure, resolution,"
      + " resolution_evidence, created_at, updated_at FROM dataflow_run";

  private RunRecord record(Connection c, ResultSet rs) throws SQLException {
    String runId = rs.getString("run_id");
    long mutation = rs.getLong("durable_mutation_at");
    Instant mutationAt = rs.wasNull() ? null : Instant.ofEpochMilli(mutation);
    long rows = rs.getLong("row_count");
    Long rowCount = rs.wasNull() ? null : rows;
    String pub = rs.getString("publication_ref");
    PublicationResponse response = pub == null ? null : new PublicationResponse(pub,
        rs.getString("datasource_ref"), rs.getString("materialization_ref"));
    String resolution = rs.getString("resolution");
    return new RunRecord(runId, rs.getString("idempotency_key"),
        RunMode.valueOf(rs.getString("mode")), RunStatus.valueOf(rs.getString("status")),
        rs.getString("specification_name"), rs.getString("definition_hash"),
        rs.getString("request_hash"), rs.getString("access_digest"),
        new Provenance(Invocation.valueOf(rs.getString("invocation")), rs.getString("host"),
            rs.getLong("process_id"), rs.getString("library_version")),
        rs.getString("target"), attempts(c, runId), mutationAt, rowCount,
        rs.getString("output_digest"), rs.getString("source_digest"),
        rs.getString("publication_digest"), response, rs.getString("checkpoint_hash"),
        ExternalOutput.valueOf(rs.getString("external_output")), rs.getString("failure"),
        resolution == null ? null : Resolution.valueOf(resolution),
        rs.getString("resolution_evidence"), Instant.ofEpochMilli(rs.getLong("created_at")),
        Instant.ofEpochMilli(rs.getLong("updated_at")));
  }

  private List<Attempt> attempts(Connection c, String runId) throws SQLException {
    List<Attempt> list = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT attempt_no, status, started_at,"
        + " lease_expires_at, ended_at, note FROM dataflow_run_attempt WHERE run_id = ?"
        + " ORDER BY attempt_no")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          long ended = rs.getLong(5);
          Instant endedAt = rs.wasNull() ? null : Instant.ofEpochMilli(ended);
          list.add(new Attempt(rs.getInt(1), AttemptStatus.valueOf(rs.getString(2)),
              Instant.ofEpochMilli(rs.getLong(3)), Instant.ofEpochMilli(rs.getLong(4)), endedAt,
              rs.getString(6)));
        }
      }
    }
    return list;
  }

  /** The lease expiry of the run's current attempt and its status, for the expiry check. */
  public record Current(int attempt, AttemptStatus status, long leaseExpiresAt,
      RunStatus runStatus, boolean durableMutation, String key, String outputDigest) {}

  /** The current attempt of a run (call after {@link #lock}). */
  public Current current(Connection c, String runId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT r.current_attempt, a.status,"
        + " a.lease_expires_at, r.status, r.durable_mutation_at, r.idempotency_key,"
        + " r.output_digest FROM dataflow_run r JOIN dataflow_run_attempt a ON a.run_id ="
        + " r.run_id AND a.attempt_no = r.current_attempt WHERE r.run_id = ?")) {
      s.setString(1, runId);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new UnknownRunException(runId);
        }
        rs.getLong(5);
        boolean mutation = !rs.wasNull();
        return new Current(rs.getInt(1), AttemptStatus.valueOf(rs.getString(2)), rs.getLong(3),
            RunStatus.valueOf(rs.getString(4)), mutation, rs.getString(6), rs.getString(7));
      }
    }
  }

  static String truncate(String s) {
    return s == null || s.length() <= 4000 ? s : s.substring(0, 3997) + "...";
  }

  private static String clean(String message, String url, String redacted) {
    String m = message == null ? "" : message;
    return m.replace(url, redacted);
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      // the connection is closed next; the database rolls back what it holds
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    closeQuietly(keeper);
  }
}
