package io.dataflow.runs;

/** The contract on the embedded default: an H2 database in a file of a temporary directory. */
class H2DurableRunsTest extends DurableRunsContract {
  @Override
  String freshLedgerUrl() {
    return "jdbc:h2:file:" + tmp.resolve("ledger").toAbsolutePath();
  }
}
