package io.dataflow.core.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MonitorSnapshotCodecTest {
  static MonitorSnapshot sample() {
    List<Value> every = List.of(Value.of(3), Value.of(1.0), Value.of(-0.0), Value.of(Double.NaN),
        Value.of(Double.NEGATIVE_INFINITY), Value.of("ä\u0000𝄞"), Value.TRUE, Value.UNIT,
        Value.NOVAL, Value.DEFERRED, Value.list(Value.of(1), Value.list()),
        Value.map("b", Value.of(2), "a", Value.map()));
    return new MonitorSnapshot(MonitorSnapshot.FORMAT_VERSION, "p", "key", 7,
        new MonitorRevision(2, 3), new Failure(6, "z", "division by zero"),
        List.of(new StreamState("x", "input", "Int", "fx", Value.of(1), Value.of(1), 2,
                List.of(Value.of(1), Value.NOVAL), List.of()),
            new StreamState("z", "output", null, "fz", Value.NOVAL, Value.of("s"), 0, List.of(),
                List.of(new OperatorState("Update", every), new OperatorState("Init",
                    List.of(Value.FALSE))))));
  }

  @Test
  void roundTripsEveryValueKindExactly() throws IOException {
    MonitorSnapshot s = sample();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.write(out);
    MonitorSnapshot back = MonitorSnapshot.read(new ByteArrayInputStream(out.toByteArray()));
    assertThat(back).isEqualTo(s);
    assertThat(back.toBytes()).isEqualTo(out.toByteArray());
    double negZero = back.stream("z").operators().get(0).values().get(2).asDouble();
    assertThat(Double.doubleToRawLongBits(negZero)).isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void namesOfEveryShapeRoundTrip() {
    // Many names, a long one, a non-ASCII one, the empty one and two with one String hash,
    // each read twice.
    List<String> names = new java.util.ArrayList<>(List.of("", "x".repeat(65), "zé", "Aa", "BB"));
    for (int i = 0; i < 3000; i++) {
      names.add("s" + i);
    }
    for (int round = 0; round < 2; round++) {
      for (String name : names) {
        MonitorSnapshot s = new MonitorSnapshot(MonitorSnapshot.FORMAT_VERSION, name + ".dsrv",
            "key", 1, MonitorRevision.INITIAL, null, List.of(new StreamState(name, "input",
                "Int", "f", Value.of(1), Value.NOVAL, 0, List.of(), List.of())));
        MonitorSnapshot back = MonitorSnapshot.fromBytes(s.toBytes());
        assertThat(back).as(name).isEqualTo(s);
        assertThat(back.programName()).isEqualTo(name + ".dsrv");
        assertThat(back.streams().get(0).name()).isEqualTo(name);
      }
    }
  }

  @Test
  void repeatedIntsAreReadBack() {
    Value big = Value.of(123456789L);
    MonitorSnapshot s = new MonitorSnapshot(MonitorSnapshot.FORMAT_VERSION, "p", "key", 1,
        MonitorRevision.INITIAL, null, List.of(new StreamState("x", "input", "Int", "f", big,
            Value.NOVAL, 3, List.of(big, Value.of(-99999L), big), List.of())));
    MonitorSnapshot back = MonitorSnapshot.fromBytes(s.toBytes());
    assertThat(back).isEqualTo(s);
    assertThat(back.streams().get(0).history()).containsExactly(big, Value.of(-99999L), big);
  }

  @Test
  void healthySnapshotWithoutFailureRoundTrips() {
    MonitorSnapshot s = new MonitorSnapshot(1, "p", "k", 0, MonitorRevision.INITIAL, null,
        List.of());
    assertThat(MonitorSnapshot.fromBytes(s.toBytes())).isEqualTo(s);
  }

  @Test
  void everyTruncationIsASnapshotExceptionWithOffset() {
    byte[] bytes = sample().toBytes();
    for (int len = 0; len < bytes.length; len++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, len);
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(prefix));
      assertThat(t).as("prefix of %d bytes", len).isExactlyInstanceOf(SnapshotException.class);
      SnapshotException e = (SnapshotException) t;
      assertThat(e.offset()).as("prefix of %d bytes", len).isBetween(0L, (long) len);
      assertThat(e.getMessage()).contains("offset " + e.offset());
    }
  }

  @Test
  void everySingleByteCorruptionIsDetected() {
    byte[] bytes = sample().toBytes();
    for (int i = 0; i < bytes.length; i++) {
      for (int bit : new int[] {0x01, 0x80, 0xFF}) {
        byte[] bad = bytes.clone();
        bad[i] ^= (byte) bit;
        Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(bad));
        assertThat(t).as("byte %d ^ %x", i, bit).isExactlyInstanceOf(SnapshotException.class);
        assertThat(t.getMessage()).contains("offset");
      }
    }
  }

  @Test
  void corruptionInTheContentIsReportedAsChecksumMismatch() {
    byte[] bad = sample().toBytes();
    bad[bad.length - 10] ^= 1;
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(bad))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("checksum mismatch");
  }

  @Test
  void foreignMagicAndFutureVersionsAreRefused() {
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes("{\"json\": true}".getBytes()))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset 0")
        .hasMessageContaining("foreign magic");
    // Version 4 on: the version is the byte after the 4-byte magic.
    byte[] future = sample().toBytes();
    assertThat(future[4]).isEqualTo((byte) MonitorSnapshot.FORMAT_VERSION);
    future[4] = (byte) (MonitorSnapshot.FORMAT_VERSION + 1);
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(future))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset 4")
        .hasMessageContaining("format version " + (MonitorSnapshot.FORMAT_VERSION + 1)
            + " is not supported");
    // Versions 1 to 3: a u16 after the 8-byte magic, where 4 on is not a version.
    byte[] old = inVersion(3, sample()).toBytes();
    old[9] = (byte) MonitorSnapshot.FORMAT_VERSION;
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(old))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset 8")
        .hasMessageContaining("format version " + MonitorSnapshot.FORMAT_VERSION
            + " is not supported");
    // The 4 bytes version 4 shares with the older magic, then the rest of a foreign one.
    byte[] foreign = inVersion(3, sample()).toBytes();
    foreign[6] = 'x';
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(foreign))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset 6")
        .hasMessageContaining("foreign magic");
  }

  /** The sample in another format version. */
  static MonitorSnapshot inVersion(int version, MonitorSnapshot s) {
    return new MonitorSnapshot(version, s.programName(), s.definitionKey(), s.nextTick(),
        s.revision(), s.failure(), s.streams());
  }

  /**
   * A snapshot as a monitor wrote it in format version 2: hashes as keys, the usual roles,
   * types and kinds.
   */
  static MonitorSnapshot typical() {
    return typical(2, "0123456789abcdef0123456789abcdef");
  }

  /** {@link #typical()} in format {@code version} with hashes like {@code h}. */
  static MonitorSnapshot typical(int version, String h) {
    return new MonitorSnapshot(version, "counter.dsrv", h, 64,
        MonitorRevision.INITIAL, null,
        List.of(new StreamState("x", "input", "Int", h.replace('0', 'f'), Value.of(63),
                Value.of(63), 0, List.of(), List.of()),
            new StreamState("z", "output", "Int", h.replace('1', 'e'), Value.of(2016),
                Value.NOVAL, 1, List.of(Value.of(2016)),
                List.of(new OperatorState("IntArith", List.of(Value.of(2016), Value.TRUE,
                    Value.of(-33), Value.of(159), Value.of(160), Value.of(-32),
                    Value.of(Long.MIN_VALUE), Value.of(Long.MAX_VALUE))),
                    new OperatorState("Lift", List.of()),
                    new OperatorState("Strict;f=0", List.of(Value.FALSE))))));
  }

  @Test
  void version1IsStillReadAndWrittenBackInVersion1() {
    MonitorSnapshot v1 = inVersion(1, sample());
    byte[] bytes = v1.toBytes();
    assertThat(bytes[9]).isEqualTo((byte) 1);
    MonitorSnapshot back = MonitorSnapshot.fromBytes(bytes);
    assertThat(back).isEqualTo(v1);
    assertThat(back.toBytes()).isEqualTo(bytes);
    // The same content in both versions; version 2 is the smaller.
    assertThat(inVersion(2, back).streams()).isEqualTo(v1.streams());
    assertThat(sample().toBytes().length).isLessThan(bytes.length);
  }

  @Test
  void version2WritesHashesAndCodesCompactly() {
    MonitorSnapshot s = typical();
    byte[] bytes = s.toBytes();
    assertThat(MonitorSnapshot.fromBytes(bytes)).isEqualTo(s);
    assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
    assertThat(bytes.length).isLessThan(inVersion(1, s).toBytes().length / 2);
    assertThat(SnapshotCodecV2.KINDS).doesNotHaveDuplicates();
  }

  @Test
  void version2RefusesTheLongerOfTwoEncodings() {
    byte[] ok = typical().toBytes();
    // The next tick 64 is one varint byte (0x40) right after the 16 bytes of the key: write it
    // as two bytes (0xC0 0x00), then fix the checksum so only the encoding is wrong.
    int at = 8 + 2 + 1 + 1 + "counter.dsrv".length() + 16;
    assertThat(ok[at]).isEqualTo((byte) 0x40);
    byte[] longer = new byte[ok.length + 1];
    System.arraycopy(ok, 0, longer, 0, at);
    longer[at] = (byte) 0xC0;
    longer[at + 1] = 0;
    System.arraycopy(ok, at + 1, longer, at + 2, ok.length - at - 1);
    fixChecksum(longer);
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(longer))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset " + at)
        .hasMessageContaining("shortest form");
  }

  private static void fixChecksum(byte[] b) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b, 0, b.length - 4);
    int v = (int) crc.getValue();
    for (int i = 0; i < 4; i++) {
      b[b.length - 4 + i] = (byte) (v >>> (24 - 8 * i));
    }
  }

  @Test
  void version2TruncationAndCorruptionAreSnapshotExceptions() {
    byte[] bytes = typical().toBytes();
    for (int len = 0; len < bytes.length; len++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, len);
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(prefix));
      assertThat(t).as("prefix of %d bytes", len).isExactlyInstanceOf(SnapshotException.class);
    }
    for (int i = 0; i < bytes.length; i++) {
      byte[] bad = bytes.clone();
      bad[i] ^= 0x01;
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(bad));
      assertThat(t).as("byte %d", i).isExactlyInstanceOf(SnapshotException.class);
      assertThat(t.getMessage()).contains("offset");
    }
  }

  /** A snapshot as a monitor writes it in format version 3: 16-hex-digit hashes. */
  static MonitorSnapshot typicalV3() {
    return typical(3, "0123456789abcdef");
  }

  @Test
  void version2IsStillReadAndWrittenBackInVersion2() {
    MonitorSnapshot v2 = inVersion(2, sample());
    byte[] bytes = v2.toBytes();
    assertThat(bytes[9]).isEqualTo((byte) 2);
    MonitorSnapshot back = MonitorSnapshot.fromBytes(bytes);
    assertThat(back).isEqualTo(v2);
    assertThat(back.toBytes()).isEqualTo(bytes);
    assertThat(sample().formatVersion()).isEqualTo(5);
  }

  @Test
  void version3WritesShortHashesAndLeavesOutWhatIsEmpty() {
    MonitorSnapshot s = typicalV3();
    byte[] bytes = s.toBytes();
    assertThat(bytes[9]).isEqualTo((byte) 3);
    assertThat(MonitorSnapshot.fromBytes(bytes)).isEqualTo(s);
    assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
    // Field by field: magic 8, version 2, flags 1, name 13, key 8, tick 1, stream count 1;
    // x: name 2, descriptor 1, fingerprint 8, value 1, last present 1; z: name 2, descriptor 1,
    // fingerprint 8, value 3 (2016), depth 1, history 2 (a reference to 2016), operator count
    // 1; IntArith: code 1, count 1, values 1 (reference) + 1 + 2 + 1 + 3 + 1 + 11 + 11; Lift 2;
    // Strict;f=0 (no code): 1 + 11 + 1 + 1; checksum 4.
    assertThat(bytes.length).isEqualTo(34 + 13 + 18 + 33 + 2 + 14 + 4);
    assertThat(bytes.length).isLessThan(typical().toBytes().length);
    // Keys and fingerprints of another length are strings (each way of writing it is refused
    // the other way: see version3RefusesTheLongerOfTwoEncodings).
    MonitorSnapshot longKeys = typical(3, "0123456789abcdef0123456789abcdef");
    assertThat(MonitorSnapshot.fromBytes(longKeys.toBytes())).isEqualTo(longKeys);
  }

  @Test
  void version3ReadsAnIntReferenceAsTheIntItNames() {
    List<Value> ints = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ints.add(Value.of(1000L * (i % 11)));
      ints.add(Value.of(-1000L * (i % 3)));
      ints.add(Value.list(Value.of(1000L * (i % 11)), Value.of(Long.MIN_VALUE)));
    }
    MonitorSnapshot s = new MonitorSnapshot(3, "p", "0123456789abcdef", 1,
        MonitorRevision.INITIAL, null, List.of(new StreamState("z", "output", null,
            "fedcba9876543210", Value.of(Long.MIN_VALUE), Value.NOVAL, 0, List.of(),
            List.of(new OperatorState("Update", ints)))));
    byte[] bytes = s.toBytes();
    assertThat(MonitorSnapshot.fromBytes(bytes)).isEqualTo(s);
    assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
  }

  @Test
  void version3RefusesTheLongerOfTwoEncodings() {
    MonitorSnapshot base = typicalV3();
    // A value written again instead of the reference to it.
    assertRefused(v3WithLiteral(base), "a reference to it is shorter");
    // A zero revision written out.
    byte[] ok = base.toBytes();
    int flags = 10;
    int tickAt = flags + 1 + 13 + 8;
    byte[] zeroRevision = insert(ok, tickAt + 1, new byte[] {0, 0});
    zeroRevision[flags] |= 4;
    assertRefused(zeroRevision, "zero revision");
    // A key of 16 hex digits written as a string.
    byte[] keyText = splice(ok, flags + 1 + 13, 8, concat(new byte[] {16},
        "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    keyText[flags] |= 2;
    assertRefused(keyText, "8-byte form");
    // A NoVal last present value written out: x's descriptor says one follows its value.
    int xDesc = tickAt + 1 + 1 + 2;
    assertThat(ok[xDesc] & 0x40).isEqualTo(0x40);
    byte[] noval = ok.clone();
    noval[xDesc + 1 + 8 + 1] = 0;
    assertRefused(noval, "NoVal last present value written out");
    // An input without history and operators written with them.
    byte[] empty = insert(ok, xDesc + 1 + 8 + 2, new byte[] {0, 0, 0});
    empty[xDesc] |= (byte) 0x80;
    assertRefused(empty, "no history and no operators written out");
  }

  /** {@code base}'s bytes with a reference to an Int replaced by the Int written again. */
  private static byte[] v3WithLiteral(MonitorSnapshot base) {
    byte[] ok = base.toBytes();
    // z's history holds 2016, its value's literal just before: 05 C0 1F, then depth 1, count
    // 1 and the reference 0x0A.
    for (int i = 0; i + 5 < ok.length; i++) {
      if (ok[i] == 5 && ok[i + 1] == (byte) 0xC0 && ok[i + 2] == 0x1F && ok[i + 3] == 1
          && ok[i + 4] == 1 && ok[i + 5] == 0x0A) {
        return splice(ok, i + 5, 1, new byte[] {5, (byte) 0xC0, 0x1F});
      }
    }
    throw new AssertionError("no reference to 2016 found");
  }

  private static void assertRefused(byte[] bytes, String reason) {
    fixChecksum(bytes);
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(bytes))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset")
        .hasMessageContaining(reason);
  }

  private static byte[] insert(byte[] b, int at, byte[] what) {
    return splice(b, at, 0, what);
  }

  private static byte[] splice(byte[] b, int at, int remove, byte[] what) {
    byte[] out = new byte[b.length - remove + what.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(what, 0, out, at, what.length);
    System.arraycopy(b, at + remove, out, at + what.length, b.length - at - remove);
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    return splice(a, a.length, 0, b);
  }

  @Test
  void version3TruncationAndCorruptionAreSnapshotExceptions() {
    byte[] bytes = typicalV3().toBytes();
    for (int len = 0; len < bytes.length; len++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, len);
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(prefix));
      assertThat(t).as("prefix of %d bytes", len).isExactlyInstanceOf(SnapshotException.class);
    }
    for (int i = 0; i < bytes.length; i++) {
      byte[] bad = bytes.clone();
      bad[i] ^= 0x01;
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(bad));
      assertThat(t).as("byte %d", i).isExactlyInstanceOf(SnapshotException.class);
      assertThat(t.getMessage()).contains("offset");
    }
  }

  /** {@link #typical()} as a monitor writes it in format version 4: 8-hex-digit fingerprints. */
  static MonitorSnapshot typicalV4() {
    MonitorSnapshot t = typical(4, "0123456789abcdef");
    List<StreamState> streams = new java.util.ArrayList<>();
    for (StreamState st : t.streams()) {
      streams.add(new StreamState(st.name(), st.role(), st.declaredType(),
          MonitorSnapshot.shortFingerprint(st.fingerprint()), st.current(), st.lastPresent(),
          st.historyDepth(), st.history(), st.operators()));
    }
    return new MonitorSnapshot(4, t.programName(), t.definitionKey(), t.nextTick(),
        t.revision(), t.failure(), streams);
  }

  @Test
  void version4HasAShortHeaderAndShortFingerprints() {
    MonitorSnapshot s = typicalV4();
    byte[] bytes = s.toBytes();
    assertThat(java.util.Arrays.copyOf(bytes, 5))
        .isEqualTo(new byte[] {(byte) 0x89, 'D', 'F', 'S', 4});
    assertThat(MonitorSnapshot.fromBytes(bytes)).isEqualTo(s);
    assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
    // Version 3's bytes (see version3WritesShortHashesAndLeavesOutWhatIsEmpty) less 5 in the
    // header and 4 in each of the two fingerprints.
    assertThat(bytes.length).isEqualTo(34 + 13 + 18 + 33 + 2 + 14 + 4 - 5 - 4 - 4);
    // Version 3 of the same content is still written and read as version 3.
    MonitorSnapshot v3 = inVersion(3, s);
    assertThat(v3.toBytes()[9]).isEqualTo((byte) 3);
    assertThat(MonitorSnapshot.fromBytes(v3.toBytes())).isEqualTo(v3);
    // Fingerprints of another length (a version 3 record's) are strings.
    MonitorSnapshot longer = inVersion(4, typicalV3());
    assertThat(MonitorSnapshot.fromBytes(longer.toBytes())).isEqualTo(longer);
  }

  @Test
  void version4RefusesAShortFingerprintWrittenAsAString() {
    byte[] ok = typicalV4().toBytes();
    // x's fingerprint follows its name (2 bytes) and descriptor, after the header: magic 4,
    // version 1, flags 1, name 13, key 8, tick 1, stream count 1.
    int xDesc = 4 + 1 + 1 + 13 + 8 + 1 + 1 + 2;
    assertThat(MonitorSnapshot.fromBytes(ok).streams().get(0).fingerprint())
        .isEqualTo("f1234567");
    byte[] text = splice(ok, xDesc + 1, 4, concat(new byte[] {8},
        "f1234567".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    text[xDesc] |= 0x20;
    assertRefused(text, "4-byte form");
  }

  @Test
  void version4And5TruncationAndCorruptionAreSnapshotExceptions() {
    for (MonitorSnapshot s : List.of(typicalV4(), inVersion(5, typicalV4()), packable("p"))) {
      truncationAndCorruptionAreSnapshotExceptions(s.toBytes());
    }
  }

  private static void truncationAndCorruptionAreSnapshotExceptions(byte[] bytes) {
    for (int len = 0; len < bytes.length; len++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, len);
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(prefix));
      assertThat(t).as("prefix of %d bytes", len).isExactlyInstanceOf(SnapshotException.class);
      assertThat(((SnapshotException) t).offset()).as("prefix of %d bytes", len)
          .isBetween(0L, (long) len);
    }
    for (int i = 0; i < bytes.length; i++) {
      for (int bit : new int[] {0x01, 0x80, 0xFF}) {
        byte[] bad = bytes.clone();
        bad[i] ^= (byte) bit;
        Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(bad));
        assertThat(t).as("byte %d ^ %x", i, bit).isExactlyInstanceOf(SnapshotException.class);
        assertThat(t.getMessage()).contains("offset");
      }
    }
  }

  /**
   * One stream with one operator whose head packs its kind and value count (format version 5):
   * magic 4, version 1, flags 1, name 1 + {@code name.length() - 5} when it ends in
   * {@code .dsrv}, key 8, tick 1; z: name 2, descriptor 1, fingerprint 4, value 1, history
   * head 1 (depth 0, so no sample count), operator count 1, operator head 1, value 1;
   * checksum 4.
   */
  static MonitorSnapshot packable(String name) {
    return new MonitorSnapshot(5, name, "0123456789abcdef", 1, MonitorRevision.INITIAL, null,
        List.of(new StreamState("z", "output", "Int", "89abcdef", Value.of(1), Value.NOVAL, 0,
            List.of(), List.of(new OperatorState("IntArith", List.of(Value.of(7)))))));
  }

  @Test
  void version5PacksTheNameSuffixTheStreamCountAFullHistoryAndOperatorHeads() {
    MonitorSnapshot v4 = typicalV4();
    MonitorSnapshot s = inVersion(5, v4);
    byte[] bytes = s.toBytes();
    assertThat(java.util.Arrays.copyOf(bytes, 5))
        .isEqualTo(new byte[] {(byte) 0x89, 'D', 'F', 'S', 5});
    // Flags: the suffix (8) and 2 streams (+ 1, in the high nibble); the name without ".dsrv".
    assertThat(bytes[5]).isEqualTo((byte) (8 | 3 << 4));
    assertThat(bytes[6]).isEqualTo((byte) 7);
    assertThat(MonitorSnapshot.fromBytes(bytes)).isEqualTo(s);
    assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
    // Version 4's bytes less 5 of the suffix, 1 of the stream count, 1 of z's full history's
    // sample count (its operators have 8 values, none, and a kind without a code: not packed).
    assertThat(bytes.length).isEqualTo(v4.toBytes().length - 5 - 1 - 1);
    // Version 4 of the same content is still written and read as version 4, byte for byte.
    byte[] old = v4.toBytes();
    assertThat(old[4]).isEqualTo((byte) 4);
    assertThat(MonitorSnapshot.fromBytes(old)).isEqualTo(v4);
    assertThat(MonitorSnapshot.fromBytes(old).toBytes()).isEqualTo(old);

    byte[] packed = packable("p.dsrv").toBytes();
    assertThat(packed.length).isEqualTo(4 + 1 + 1 + 2 + 8 + 1 + 2 + 1 + 4 + 1 + 1 + 1 + 1 + 1 + 4);
    // The operator head: IntArith (code 18) with 1 value.
    assertThat(packed[27] & 0xFF).isEqualTo(35 + 18 - 1);
    assertThat(MonitorSnapshot.fromBytes(packed)).isEqualTo(packable("p.dsrv"));
    assertThat(inVersion(4, packable("p.dsrv")).toBytes().length)
        .isEqualTo(packed.length + 5 + 1 + 1 + 1);
  }

  @Test
  void version5ReadsBackEveryNameEveryStreamCountAndEveryOperatorHead() {
    for (String name : List.of("p", "p.dsrv", ".dsrv", "a.dsrv.dsrv", "a.dsr", "ä.dsrv",
        "dsrv")) {
      MonitorSnapshot s = packable(name);
      assertThat(MonitorSnapshot.fromBytes(s.toBytes())).as(name).isEqualTo(s);
      assertThat(MonitorSnapshot.fromBytes(s.toBytes()).toBytes()).isEqualTo(s.toBytes());
    }
    for (int n : new int[] {0, 1, 14, 15, 16, 200}) {
      List<StreamState> streams = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        streams.add(new StreamState("s" + i, "input", "Int", "89abcdef", Value.of(i),
            Value.NOVAL, 0, List.of(), List.of()));
      }
      MonitorSnapshot s = new MonitorSnapshot(5, "p", "0123456789abcdef", 1,
          MonitorRevision.INITIAL, null, streams);
      byte[] bytes = s.toBytes();
      assertThat(bytes[5] >>> 4 & 0xF).as("%d streams", n).isEqualTo(n <= 14 ? n + 1 : 0);
      assertThat(MonitorSnapshot.fromBytes(bytes)).as("%d streams", n).isEqualTo(s);
      assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
    }
    // Every kind with every value count from 0 to 8, and a kind without a code.
    List<OperatorState> ops = new java.util.ArrayList<>();
    for (String kind : SnapshotCodecV2.KINDS) {
      for (int count = 0; count <= 8; count++) {
        ops.add(new OperatorState(kind, java.util.Collections.nCopies(count, Value.TRUE)));
      }
    }
    ops.add(new OperatorState("Strict;f=0", List.of(Value.FALSE)));
    for (int depth = 0; depth <= 3; depth++) {
      for (int samples = 0; samples <= depth; samples++) {
        MonitorSnapshot s = new MonitorSnapshot(5, "p", "0123456789abcdef", 1,
            MonitorRevision.INITIAL, null, List.of(new StreamState("z", "output", null,
                "89abcdef", Value.UNIT, Value.NOVAL, depth,
                java.util.Collections.nCopies(samples, Value.of(-1)), ops)));
        byte[] bytes = s.toBytes();
        assertThat(MonitorSnapshot.fromBytes(bytes)).isEqualTo(s);
        assertThat(MonitorSnapshot.fromBytes(bytes).toBytes()).isEqualTo(bytes);
      }
    }
  }

  @Test
  void version5RefusesTheLongerOfTwoEncodings() {
    byte[] ok = packable("p.dsrv").toBytes();
    int flags = 5;
    // The name with its suffix written out.
    byte[] suffix = splice(ok, flags + 1, 2, concat(new byte[] {6},
        "p.dsrv".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    suffix[flags] &= ~8;
    assertRefused(suffix, "written with its .dsrv");
    // The stream count written out though it fits the flags.
    int tickAt = flags + 1 + 2 + 8;
    byte[] count = insert(ok, tickAt + 1, new byte[] {1});
    count[flags] &= 0x0F;
    assertRefused(count, "stream count 1 written out");
    // An operator head in the long form (code, count) where the packed one holds it.
    int opHead = tickAt + 1 + 2 + 1 + 4 + 1 + 1 + 1;
    assertThat(ok[opHead] & 0xFF).isEqualTo(52);
    assertRefused(splice(ok, opHead, 1, new byte[] {18, 1}), "written long");
    // Past the packed heads.
    byte[] beyond = ok.clone();
    beyond[opHead] = (byte) (35 + 34 * 6);
    assertRefused(beyond, "operator head 239 out of range");
    // A full history's sample count written out: z of typicalV4 has depth 1 and 1 sample.
    byte[] full = inVersion(5, typicalV4()).toBytes();
    int zHistory = flags + 1 + 8 + 8 + 1 + 2 + 1 + 4 + 1 + 1 + 2 + 1 + 4 + 3;
    assertThat(full[zHistory]).isEqualTo((byte) 3);
    byte[] written = insert(full, zHistory + 1, new byte[] {1});
    written[zHistory] = 2;
    assertRefused(written, "full history's sample count written out");
  }

  @Test
  void aShortFingerprintNamesTheFullOne() {
    String full = "0123456789abcdef0123456789abcdef";
    assertThat(MonitorSnapshot.shortFingerprint(full)).isEqualTo("01234567");
    assertThat(MonitorSnapshot.sameHash("01234567", full)).isTrue();
    assertThat(MonitorSnapshot.sameHash("01234568", full)).isFalse();
    assertThat(MonitorSnapshot.sameHash("0123456", full)).isFalse();
  }

  @Test
  void aShortHashNamesTheFullOne() {
    String full = "0123456789abcdef0123456789abcdef";
    assertThat(MonitorSnapshot.shortHash(full)).isEqualTo("0123456789abcdef");
    assertThat(MonitorSnapshot.sameHash("0123456789abcdef", full)).isTrue();
    assertThat(MonitorSnapshot.sameHash(full, full)).isTrue();
    assertThat(MonitorSnapshot.sameHash("0123456789abcdee", full)).isFalse();
    assertThat(MonitorSnapshot.sameHash("0123456789abcdef01", full)).isFalse();
    assertThat(MonitorSnapshot.sameHash(full, "0123456789abcdef")).isFalse();
  }

  @Test
  void hugeDeclaredLengthsAllocateNothing() {
    byte[] bytes = new MonitorSnapshot(1, "p", "k", 0, MonitorRevision.INITIAL, null, List.of())
        .toBytes();
    // The program name's length is the first field after magic and version: claim 2 GiB.
    byte[] bad = bytes.clone();
    bad[10] = 0x7F;
    bad[11] = (byte) 0xFF;
    bad[12] = (byte) 0xFF;
    bad[13] = (byte) 0xFF;
    long before = usedMemory();
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(bad))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("exceeds what the remaining");
    assertThat(usedMemory() - before).isLessThan(64L << 20);
  }

  @Test
  void readingAFileNamesTheFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("s.snap");
    sample().write(f);
    assertThat(MonitorSnapshot.read(f)).isEqualTo(sample());
    Files.write(f, new byte[] {1, 2, 3});
    assertThatThrownBy(() -> MonitorSnapshot.read(f)).isInstanceOf(SnapshotException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("offset 0");
  }

  private static long usedMemory() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }
  /**
   * The cached conversion of hashes between text and bytes (SnapshotCodecV3.Hash) gives what
   * the plain one gives: seeded random keys and fingerprints, many colliding in the caches,
   * some not hashes (upper case, other lengths), read back equal, twice.
   */
  @Test
  void hashesConvertTheSameThroughTheirCaches() {
    long seed = 0x15CL;
    java.util.Random rnd = new java.util.Random(seed);
    for (int i = 0; i < 3000; i++) {
      String key = hexDigits(rnd, rnd.nextInt(8) == 0 ? 15 : 16);
      if (rnd.nextInt(10) == 0) {
        key = key.toUpperCase(java.util.Locale.ROOT);
      }
      String fp = hexDigits(rnd, rnd.nextInt(8) == 0 ? 16 : 8);
      MonitorSnapshot s = new MonitorSnapshot(MonitorSnapshot.FORMAT_VERSION, "p", key, 1,
          MonitorRevision.INITIAL, null, List.of(new StreamState("x", "input", "Int", fp,
              Value.of(1), Value.NOVAL, 0, List.of(), List.of())));
      for (int pass = 0; pass < 2; pass++) {
        byte[] bytes = s.toBytes();
        assertThat(MonitorSnapshot.fromBytes(bytes)).as("seed %d, case %d", seed, i)
            .isEqualTo(s);
        assertThat(bytes.length).as("the byte form of a hash").isEqualTo(
            5 + 1 + 2 + (SnapshotCodecV3.isHash(key, 16) ? 8 : 1 + key.length()) + 1 + 2
            + 1 + (SnapshotCodecV3.isHash(fp, 8) ? 4 : 1 + fp.length()) + 1 + 4);
      }
    }
  }

  private static String hexDigits(java.util.Random rnd, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append("0123456789abcdef".charAt(rnd.nextInt(16)));
    }
    return b.toString();
  }
}
