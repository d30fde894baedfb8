package io.dataflow.runs.internal;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The ledger's connections for Flyway: {@link DriverManager} with the URL and properties as
 * given (their credentials stay in memory, never in the ledger).
 */
final class LedgerDataSource implements DataSource {
  private final String url;
  private final Properties properties;

  LedgerDataSource(String url, Properties properties) {
    this.url = url;
    this.properties = properties;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return DriverManager.getConnection(url, properties);
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    Properties p = new Properties();
    p.putAll(properties);
    p.setProperty("user", user);
    p.setProperty("password", password);
    return DriverManager.getConnection(url, p);
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
