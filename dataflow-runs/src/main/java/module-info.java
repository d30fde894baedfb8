/**
 * Durable bounded runs ({@code io.dataflow.runs}): the JDBC recovery ledger (H2 by default,
 * PostgreSQL), fenced attempts with leases on the clock, atomic and forward-recovery modes and
 * the publication targets. The ledger, the attempt and the evaluation
 * ({@code io.dataflow.runs.internal}) are not exported.
 */
module io.dataflow.runs {
  requires transitive io.dataflow.core;
  requires transitive io.dataflow.monitor;
  requires transitive io.dataflow.io;
  requires transitive java.sql;
  requires org.slf4j;
  // Migrations; the jar has no module name of its own, so these are the file-derived names.
  requires flyway.core;
  requires flyway.database.postgresql;
  // The two ledgers' drivers, found by DriverManager.
  requires com.h2database;
  requires org.postgresql.jdbc;

  exports io.dataflow.runs;
  // The migrations are resources under db/dataflow-runs (not a package, so Flyway reads them).
}
