package io.dataflow.monitor.lang;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The plain-Java SHA-256 gives the JDK's digest: known vectors, every padding length. */
class Sha256Test {
  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  @Test
  void knownVectors() {
    assertThat(hex(Sha256.digest(new byte[0])))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assertThat(hex(Sha256.digest("abc".getBytes(StandardCharsets.US_ASCII))))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(hex(Sha256.digest(("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        .getBytes(StandardCharsets.US_ASCII))))
        .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }

  @Test
  void sameAsTheJdkForEveryLengthAroundTheBlockBoundaries() throws Exception {
    Random random = new Random(21);
    for (int n = 0; n < 300; n++) {
      byte[] data = new byte[n];
      random.nextBytes(data);
      assertThat(Sha256.digest(data)).as("length %d", n)
          .isEqualTo(MessageDigest.getInstance("SHA-256").digest(data));
    }
    byte[] big = new byte[100_003];
    random.nextBytes(big);
    assertThat(Sha256.digest(big)).isEqualTo(MessageDigest.getInstance("SHA-256").digest(big));
  }

  @Test
  void canonicalHashIsTheFirstHalfOfTheDigestInHex() throws Exception {
    String text = "Int|(x + y)";
    byte[] jdk = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    assertThat(Canonical.hash(text)).isEqualTo(HexFormat.of().formatHex(jdk, 0, 16));
  }
}
