package io.dataflow.runs;

import io.dataflow.runs.internal.JdbcUrls;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Publishes to a table of a JDBC database, one row per publication, its idempotency key the
 * primary key (unique):
 *
 * <pre>
 * idempotency_key VARCHAR(256) PRIMARY KEY, publication_digest, output_digest, source_digest,
 * row_count BIGINT, run_id, rows_text TEXT
 * </pre>
 *
 * <p>The table is created when missing. A second publication under a key finds the first row
 * (the unique key refuses the insert) and answers with it when the output digest matches, or
 * refuses conclusively when it does not. The URL's credentials are used to connect; only the
 * URL without them is recorded, and only a digest of the user.
 *
 * <p>Thread-safety: safe from any thread (a connection per call).
 */
public final class JdbcTableTarget implements PublicationTarget {
  private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

  private final String url;
  private final Properties properties;
  private final String table;

  private JdbcTableTarget(String url, Properties properties, String table) {
    this.url = url;
    this.properties = properties;
    this.table = table;
  }

  /**
   * A target writing to {@code table} of the database at {@code jdbcUrl}.
   *
   * @param connectionProperties {@code user}, {@code password}, ... (may be empty)
   * @throws IllegalArgumentException when {@code table} is not a plain SQL name
   */
  public static JdbcTableTarget of(String jdbcUrl, Properties connectionProperties,
      String table) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (table == null || !TABLE.matcher(table).matches()) {
      throw new IllegalArgumentException("the table name must be a plain SQL name"
          + " ([A-Za-z_][A-Za-z0-9_]*, at most 63 characters), not '" + table + "'");
    }
    Properties p = new Properties();
    if (connectionProperties != null) {
      p.putAll(connectionProperties);
    }
    return new JdbcTableTarget(jdbcUrl, p, table);
  }

  /** The table's name. */
  public String table() {
    return table;
  }

  @Override
  public String description() {
    return "jdbc-table:" + JdbcUrls.redact(url) + "#" + table;
  }

  @Override
  public Set<Capability> capabilities() {
    return EnumSet.of(Capability.PUBLICATION, Capability.INSPECTION);
  }

  @Override
  public String accessIdentity() {
    return JdbcUrls.user(url, properties);
  }

  @Override
  public PublicationResponse publish(Publication p) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, properties)) {
      createTable(c);
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
          + " (idempotency_key, publication_digest, output_digest, source_digest, row_count,"
          + " run_id, rows_text) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        insert.setString(1, p.idempotencyKey());
        insert.setString(2, p.publicationDigest());
        insert.setString(3, p.outputDigest());
        insert.setString(4, p.sourceDigest());
        insert.setLong(5, p.rowCount());
        insert.setString(6, p.runId());
        insert.setString(7, p.rendered());
        insert.executeUpdate();
        return response(p.idempotencyKey());
      } catch (SQLException e) {
        if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
          throw e;
        }
      }
      // The key is taken: the same publication (answer with it) or another one (refuse).
      String digest = digestOf(c, p.idempotencyKey())
          .orElseThrow(() -> new SQLException("key '" + p.idempotencyKey() + "' is taken but"
              + " its row cannot be read in " + table));
      if (!digest.equals(p.outputDigest())) {
        throw new PublicationRejectedException("key '" + p.idempotencyKey()
            + "' was already published to " + description() + " with output digest " + digest
            + ", not " + p.outputDigest());
      }
      return response(p.idempotencyKey());
    }
  }

  @Override
  public Optional<PublicationResponse> inspect(String idempotencyKey, String outputDigest)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url, properties)) {
      createTable(c);
      return digestOf(c, idempotencyKey).filter(outputDigest::equals)
          .map(d -> response(idempotencyKey));
    }
  }

  private void createTable(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + table + " (idempotency_key VARCHAR(256) NOT NULL"
          + " PRIMARY KEY, publication_digest VARCHAR(64) NOT NULL, output_digest VARCHAR(64)"
          + " NOT NULL, source_digest VARCHAR(64) NOT NULL, row_count BIGINT NOT NULL,"
          + " run_id VARCHAR(64) NOT NULL, rows_text TEXT NOT NULL)");
    }
  }

  private Optional<String> digestOf(Connection c, String key) throws SQLException {
    try (PreparedStatement q = c.prepareStatement("SELECT output_digest FROM " + table
        + " WHERE idempotency_key = ?")) {
      q.setString(1, key);
      try (ResultSet rs = q.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  private PublicationResponse response(String key) {
    return new PublicationResponse(description() + "?idempotency_key=" + key,
        JdbcUrls.redact(url) + "#" + table, table + "[" + key + "]");
  }

  @Override
  public String toString() {
    return description();
  }
}
