package io.dataflow.runs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class JdbcUrlsTest {
  @Test
  void redactRemovesUserInfoAndSecretParametersAndKeepsTheRest() {
    assertThat(JdbcUrls.redact("jdbc:postgresql://db:5432/runs?user=u&password=p&ssl=true"))
        .isEqualTo("jdbc:postgresql://db:5432/runs?ssl=true");
    assertThat(JdbcUrls.redact("jdbc:postgresql://db/runs?password=p&user=u"))
        .isEqualTo("jdbc:postgresql://db/runs");
    assertThat(JdbcUrls.redact("jdbc:postgresql://u:p@db/runs?sslmode=require&accessToken=t"))
        .isEqualTo("jdbc:postgresql://db/runs?sslmode=require");
    assertThat(JdbcUrls.redact("jdbc:h2:file:./x;USER=sa;PASSWORD=pw;AUTO_SERVER=TRUE"))
        .isEqualTo("jdbc:h2:file:./x;AUTO_SERVER=TRUE");
    assertThat(JdbcUrls.redact("jdbc:h2:file:./dataflow-runs"))
        .isEqualTo("jdbc:h2:file:./dataflow-runs");
  }

  @Test
  void userComesFromPropertiesThenParametersThenUserInfoAndNeverThePassword() {
    Properties p = new Properties();
    p.setProperty("user", "alice");
    p.setProperty("password", "pw");
    assertThat(JdbcUrls.user("jdbc:postgresql://db/runs?user=bob", p)).isEqualTo("alice");
    assertThat(JdbcUrls.user("jdbc:postgresql://db/runs?user=bob&password=x", new Properties()))
        .isEqualTo("bob");
    assertThat(JdbcUrls.user("jdbc:h2:mem:x;USER=sa;PASSWORD=x", null)).isEqualTo("sa");
    assertThat(JdbcUrls.user("jdbc:postgresql://carol:pw@db/runs", null)).isEqualTo("carol");
    assertThat(JdbcUrls.user("jdbc:h2:mem:x", null)).isEmpty();
  }
}
