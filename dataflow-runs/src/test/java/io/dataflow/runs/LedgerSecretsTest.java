package io.dataflow.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.testkit.ManualClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No password, token or credential reaches the ledger, nor the user names behind them (only a
 * digest of the identity): every table of the ledger, read as text, after runs that connected
 * with credentials in the URL and in properties, and published through a target whose URL has
 * them too. On both databases.
 */
class LedgerSecretsTest {
  static final String LEDGER_USER = "ledger_owner";
  static final String LEDGER_PASSWORD = "Ledger-S3cret-pw";
  static final String TARGET_USER = "target_owner";
  static final String TARGET_PASSWORD = "Target-S3cret-pw";
  static final AtomicInteger TARGETS = new AtomicInteger();

  @TempDir
  Path tmp;

  @Test
  void h2LedgerHoldsNoCredential() throws Exception {
    String base = "jdbc:h2:file:" + tmp.resolve("ledger").toAbsolutePath();
    exercise(base + ";USER=" + LEDGER_USER + ";PASSWORD=" + LEDGER_PASSWORD, base);
  }

  @Test
  void postgresLedgerHoldsNoCredential() throws Exception {
    String db = "secrets_" + TARGETS.incrementAndGet();
    PostgresLedger.admin("CREATE ROLE " + LEDGER_USER + " LOGIN PASSWORD '" + LEDGER_PASSWORD
        + "'");
    PostgresLedger.admin("CREATE DATABASE " + db + " OWNER " + LEDGER_USER);
    String base = "jdbc:postgresql://localhost:" + PostgresLedger.server().getPort() + "/" + db;
    exercise(base + "?user=" + LEDGER_USER + "&password=" + LEDGER_PASSWORD, base);
  }

  /** Runs with the credentials in the URL, then in properties; scans the ledger. */
  private void exercise(String urlWithCredentials, String bareUrl) throws Exception {
    ManualClock clock = new ManualClock();
    String targetUrl = "jdbc:h2:mem:target_" + TARGETS.incrementAndGet()
        + ";DB_CLOSE_DELAY=-1;USER=" + TARGET_USER + ";PASSWORD=" + TARGET_PASSWORD;
    JdbcTableTarget target = JdbcTableTarget.of(targetUrl, new Properties(), "verdicts");
    String keyOfUnknown;
    try (DurableRuns runs = DurableRuns.builder().ledger(urlWithCredentials).clock(clock)
        .open()) {
      assertThat(runs.ledger()).doesNotContain(LEDGER_PASSWORD).doesNotContain(LEDGER_USER);
      RunRecord published = runs.start(DurableRunsContract.request("k-secret-1",
          RunMode.FORWARD_RECOVERY), target).run();
      assertThat(published.status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(target.inspect("k-secret-1", published.outputDigest())).isPresent();
      runs.start(DurableRunsContract.request("k-secret-2", RunMode.ATOMIC));
    }
    Properties props = new Properties();
    props.setProperty("user", LEDGER_USER);
    props.setProperty("password", LEDGER_PASSWORD);
    Properties targetProps = new Properties();
    targetProps.setProperty("user", TARGET_USER);
    targetProps.setProperty("password", TARGET_PASSWORD);
    try (DurableRuns runs = DurableRuns.builder().ledger(bareUrl, props).clock(clock)
        .faultPoints((p, id, n) -> {
          if (p == FaultPoint.AFTER_DISPATCH && id != null && n == 1) {
            throw new DurableRunsContract.Crash(p);
          }
        }).leaseDuration(Duration.ofSeconds(5)).open()) {
      JdbcTableTarget viaProps = JdbcTableTarget.of(targetUrl.substring(0,
          targetUrl.indexOf(";USER")), targetProps, "verdicts");
      RunRequest req = DurableRunsContract.request("k-secret-3", RunMode.FORWARD_RECOVERY);
      keyOfUnknown = req.idempotencyKey();
      try {
        runs.start(req, viaProps);
      } catch (DurableRunsContract.Crash expected) {
        // the attempt was abandoned after dispatch
      }
      clock.advance(Duration.ofSeconds(6));
      RunRecord unknown = runs.start(req, viaProps).run();
      assertThat(unknown.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
      runs.resolve(unknown.runId(), Resolution.SUCCEEDED, "found in verdicts by key");
    }
    String text = ledgerText(bareUrl, props);
    assertThat(text).contains("k-secret-1").contains(keyOfUnknown).contains("verdicts");
    for (String secret : List.of(LEDGER_PASSWORD, TARGET_PASSWORD, LEDGER_USER, TARGET_USER)) {
      assertThat(text.toLowerCase(Locale.ROOT)).as("the ledger's text holds %s", secret)
          .doesNotContain(secret.toLowerCase(Locale.ROOT));
    }
  }

  /** Every value of every table of the ledger's schema, as text. */
  private static String ledgerText(String url, Properties props) throws SQLException {
    StringBuilder all = new StringBuilder();
    List<String> tables = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, props)) {
      DatabaseMetaData md = c.getMetaData();
      try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
        while (rs.next()) {
          String schema = rs.getString("TABLE_SCHEM");
          if (schema != null && schema.equalsIgnoreCase("public")) {
            tables.add(rs.getString("TABLE_NAME"));
          }
        }
      }
      assertThat(tables.stream().map(t -> t.toLowerCase(Locale.ROOT)).toList())
          .containsAll(Set.of("dataflow_run", "dataflow_run_attempt", "dataflow_run_checkpoint",
              "dataflow_run_event", "dataflow_runs_schema_history"));
      for (String table : tables) {
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM \"" + table + "\"");
            ResultSet rs = s.executeQuery()) {
          int columns = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            for (int i = 1; i <= columns; i++) {
              all.append(rs.getString(i)).append('\n');
            }
          }
        }
      }
    }
    return all.toString();
  }
}
