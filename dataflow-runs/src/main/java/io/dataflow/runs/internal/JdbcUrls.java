package io.dataflow.runs.internal;

import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JDBC URLs without their credentials: what the ledger may record and messages may print, and
 * the identity behind the credentials, which only reaches the ledger as a digest.
 * Thread-safety: stateless.
 */
public final class JdbcUrls {
  /** Parameter names that carry an identity or a secret (matched case-insensitively). */
  private static final Pattern SENSITIVE = Pattern.compile(
      "(user|username|password|passwd|pwd|.*token.*|.*secret.*|.*credential.*|sslkey"
          + "|sslpassword|sslpasswordcallback|.*api[-_]?key.*)");
  private static final Pattern USER_INFO = Pattern.compile("(//)([^/@?;]*@)");
  private static final Pattern USER_PARAM =
      Pattern.compile("(?i)[;?&](user|username)=([^;&]*)");

  private JdbcUrls() {}

  /**
   * {@code url} without user info ({@code //user:pw@host}) and without any parameter that
   * names a user or carries a secret ({@code ?password=..}, {@code ;PASSWORD=..}).
   */
  public static String redact(String url) {
    String s = USER_INFO.matcher(url).replaceAll("$1");
    StringBuilder out = new StringBuilder(s.length());
    // Split before each ; ? & separator, keep the separators of what remains.
    Matcher m = Pattern.compile("[;?&]").matcher(s);
    int start = 0;
    char sep = 0;
    boolean queryOpen = false;
    while (true) {
      boolean found = m.find();
      int end = found ? m.start() : s.length();
      String part = s.substring(start, end);
      if (sep == 0) {
        out.append(part);
      } else if (!isSensitive(part)) {
        char use = sep;
        if (sep == '?' || sep == '&') {
          use = queryOpen ? '&' : '?';
          queryOpen = true;
        }
        out.append(use).append(part);
      }
      if (!found) {
        break;
      }
      sep = s.charAt(m.start());
      start = m.end();
    }
    return out.toString();
  }

  private static boolean isSensitive(String param) {
    int eq = param.indexOf('=');
    String name = (eq < 0 ? param : param.substring(0, eq)).toLowerCase(Locale.ROOT).strip();
    return SENSITIVE.matcher(name).matches();
  }

  /**
   * The user behind a connection: the {@code user} property, else a {@code user=} parameter,
   * else the URL's user info; empty when there is none. Never the password.
   */
  public static String user(String url, Properties properties) {
    String p = properties == null ? null : properties.getProperty("user");
    if (p != null && !p.isEmpty()) {
      return p;
    }
    Matcher m = USER_PARAM.matcher(url);
    if (m.find()) {
      return m.group(2);
    }
    Matcher info = USER_INFO.matcher(url);
    if (info.find()) {
      String ui = info.group(2);
      ui = ui.substring(0, ui.length() - 1);
      int colon = ui.indexOf(':');
      return colon < 0 ? ui : ui.substring(0, colon);
    }
    return "";
  }
}
