package io.dataflow.runs.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in lower-case hex: every hash and digest of the ledger. Thread-safety: stateless. */
public final class Digests {
  private Digests() {}

  /** A fresh SHA-256 digest. */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The SHA-256 of {@code bytes}. */
  public static String sha256Hex(byte[] bytes) {
    return HexFormat.of().formatHex(sha256().digest(bytes));
  }

  /** The SHA-256 of {@code text} in UTF-8. */
  public static String sha256Hex(String text) {
    return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The SHA-256 of the parts, each preceded by its length, so that no two lists of parts share
   * an input ({@code "ab","c"} and {@code "a","bc"} differ).
   */
  public static String sha256HexOfParts(String... parts) {
    StringBuilder sb = new StringBuilder();
    for (String p : parts) {
      String s = p == null ? "" : p;
      sb.append(s.length()).append(':').append(s).append('\n');
    }
    return sha256Hex(sb.toString());
  }
}
