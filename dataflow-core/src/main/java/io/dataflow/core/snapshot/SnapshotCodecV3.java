package io.dataflow.core.snapshot;

import static io.dataflow.core.snapshot.SnapshotCodecV2.SMALL_INTS;
import static io.dataflow.core.snapshot.SnapshotCodecV2.SMALL_MAX;
import static io.dataflow.core.snapshot.SnapshotCodecV2.SMALL_MIN;
import static io.dataflow.core.snapshot.SnapshotCodecV2.SMALL_ZERO;
import static io.dataflow.core.snapshot.SnapshotCodecV2.T_SMALL;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import java.util.List;

/**
 * Format version 3 of a {@link MonitorSnapshot} (docs/snapshots.md has the layout table): the
 * self-description of version 2 (magic, version, program name, definition key, per stream
 * name, role, declared type and fingerprint, every value tagged, CRC32C), smaller:
 *
 * <ul>
 *   <li>the definition key and the fingerprints are 64-bit prefixes of their SHA-256 digests
 *       (16 hex digits in the record, 8 bytes in the file; {@link MonitorSnapshot#sameHash}
 *       compares such a prefix with a program's full hash);
 *   <li>a zero revision, a NoVal last present value, and a stream without history and
 *       operators (an input) take no bytes but a flag bit;
 *   <li>an Int outside the tag byte that was written in the last {@link #RECENT} Int literals
 *       is written as a one-byte reference to it (a stream's value repeats in its history and
 *       in its operators' memories).
 * </ul>
 *
 * <p>Versions 4 ({@link #VERSION4}) and 5 ({@link #VERSION5}) are version 3 with changes
 * that this class makes where they apply, so that the three share one reader and one writer.
 *
 * <p>One encoding per snapshot, as in version 2: the reader refuses the longer of two
 * encodings (a varint not in its shortest form, a string where a code or the 8-byte form
 * exists, an Int literal where a tag or a reference exists, a flag bit set for what it would
 * have left out, in version 5 an unpacked form where the packed one holds it), so what reads
 * writes back as the same bytes.
 */
final class SnapshotCodecV3 {
  static final int VERSION = 3;
  /**
   * Version 4 is version 3 with a 5-byte header ({@link SnapshotCodec#MAGIC4} and a one-byte
   * version instead of 8 + 2 bytes) and fingerprints as 32-bit prefixes (8 hex digits, 4
   * bytes); the definition key stays 64 bits. (Its operators leave derived state out: that is
   * the monitor's business, not the codec's.)
   */
  static final int VERSION4 = 4;
  /**
   * Version 5 is version 4 with four packings (docs/snapshots.md): the program name's
   * {@link #SUFFIX} and a stream count up to {@link #STREAMS_IN_FLAGS} in the header flags, a
   * full history's sample count in the history depth's low bit, and an operator's kind code
   * and a value count of 1 to {@link #PACKED_VALUES} in one head byte. The writers' version.
   */
  static final int VERSION5 = 5;

  // Value tags beyond version 2's (0..9, and the small Ints from 0x40: its constants, imported).
  /** Tags {@code T_RECENT + k}: the k-th most recent Int literal (0 the newest). */
  static final int T_RECENT = 10;
  /** How many Int literals a reference can reach back. */
  static final int RECENT = 8;

  // The flags byte of the header.
  static final int F_FAILURE = 1;
  static final int F_KEY_STRING = 2;
  static final int F_REVISION = 4;
  /** Version 5: the program name ends in {@link #SUFFIX}, written without it. */
  static final int F_SUFFIX = 8;
  /** The usual program name's ending (a specification file's), a flag bit in version 5. */
  static final String SUFFIX = ".dsrv";
  /**
   * Version 5: the header flags' high nibble is the stream count + 1 when the count is at
   * most this; 0 when a varint count follows (as in version 4).
   */
  static final int STREAMS_IN_FLAGS = 14;
  // An operator's head byte in version 5: 0 a string kind, 1 to PACKED - 1 a kind code (a
  // varint value count follows either), PACKED on a code and a value count in the byte.
  /** The first packed operator head. */
  static final int PACKED = 35;
  /** The kind codes a packed head holds: the kind table, frozen since version 5. */
  static final int PACKED_KINDS = 34;
  /** The largest value count a packed head holds (from 1). */
  static final int PACKED_VALUES = 6;
  /** The first head byte past the packed ones (refused). */
  static final int PACKED_END = PACKED + PACKED_KINDS * PACKED_VALUES;
  /** The header flags' high nibble (version 5): see {@link #STREAMS_IN_FLAGS}. */
  static final int STREAMS = 0xF0;
  // The descriptor byte of a stream: role (bits 0-1), type (bits 2-4), then these.
  static final int D_FINGERPRINT_STRING = 0x20;
  static final int D_LAST_PRESENT = 0x40;
  static final int D_STATE = 0x80;

  /** The Int literals written or read so far, the newest at {@code (head - 1) & 7}. */
  private final long[] recent = new long[RECENT];
  private int written;
  /** 3, 4 or 5. */
  private final int version;
  /** Version 5's packings (flags, history head, operator heads). */
  private final boolean packed;
  /** The hex digits of a fingerprint in its byte form: 16 (version 3) or 8 (versions 4 and 5). */
  private final int fingerprintDigits;

  private SnapshotCodecV3(int version) {
    this.version = version;
    this.fingerprintDigits = version == VERSION ? 16 : 8;
    this.packed = version >= VERSION5;
  }

  // ---- writing ----

  /** Version 3, 4 or 5, as the snapshot's {@code formatVersion} says. */
  static byte[] encode(MonitorSnapshot s) {
    return new SnapshotCodecV3(s.formatVersion()).write(s);
  }

  private byte[] write(MonitorSnapshot s) {
    SnapshotCodec.Out out = new SnapshotCodec.Out(estimate(s));
    header(out, s.programName(), s.definitionKey(), s.nextTick(), s.revision(), s.failure(),
        s.streams().size());
    List<StreamState> streams = s.streams();
    for (int i = 0, n = streams.size(); i < n; i++) {
      streamWhole(out, streams.get(i));
    }
    return out.finish();
  }

  /** A writer of a version 5 snapshot ({@link SnapshotWriter}): the state is written by it. */
  static SnapshotCodecV3 writer() {
    return new SnapshotCodecV3(VERSION5);
  }

  /** Magic and version, the header flags, name, key, next tick, revision, failure, count. */
  void header(SnapshotCodec.Out out, String programName, String definitionKey, long nextTick,
      MonitorRevision r, Failure f, int streams) {
    if (version == VERSION) {
      out.raw(SnapshotCodec.MAGIC);
      out.u16(VERSION);
    } else {
      out.raw(SnapshotCodec.MAGIC4);
      out.u8(version);
    }
    Hash key = Hash.of(definitionKey, 16);
    boolean keyBytes = key != null;
    boolean revision = r.root() != 0 || r.properties() != 0;
    int flags = (f == null ? 0 : F_FAILURE) | (keyBytes ? 0 : F_KEY_STRING)
        | (revision ? F_REVISION : 0);
    int nameLength = programName.length();
    boolean countInFlags = packed && streams <= STREAMS_IN_FLAGS;
    if (packed) {
      if (programName.endsWith(SUFFIX)) {
        flags |= F_SUFFIX;
        nameLength -= SUFFIX.length();
      }
      if (countInFlags) {
        flags |= (streams + 1) << 4;
      }
    }
    out.u8(flags);
    out.vstr(programName, nameLength);
    hash(out, definitionKey, key);
    out.uvarint(nextTick);
    if (revision) {
      out.svarint(r.root());
      out.svarint(r.properties());
    }
    if (f != null) {
      out.svarint(f.tick());
      if (f.stream() == null) {
        out.u8(0);
      } else {
        out.u8(1);
        out.vstr(f.stream());
      }
      out.vstr(f.reason());
    }
    if (!countInFlags) {
      out.uvarint(streams);
    }
  }

  void streamWhole(SnapshotCodec.Out out, StreamState st) {
    boolean lastPresent = st.lastPresent() != Value.NOVAL;
    boolean state = st.historyDepth() > 0 || !st.operators().isEmpty();
    streamHead(out, st.name(), st.role(), st.declaredType(), st.fingerprint(), lastPresent,
        state);
    value(out, st.current());
    if (lastPresent) {
      value(out, st.lastPresent());
    }
    if (!state) {
      return;
    }
    List<Value> history = st.history();
    history(out, st.historyDepth(), history.size());
    for (int i = 0, n = history.size(); i < n; i++) {
      value(out, history.get(i));
    }
    List<OperatorState> ops = st.operators();
    out.uvarint(ops.size());
    for (int j = 0, n = ops.size(); j < n; j++) {
      OperatorState op = ops.get(j);
      List<Value> vs = op.values();
      operator(out, op.kind(), vs.size());
      for (int i = 0, m = vs.size(); i < m; i++) {
        value(out, vs.get(i));
      }
    }
  }

  /**
   * A history depth and sample count (at most the depth); version 5 writes the depth shifted
   * left, its low bit set for a full history, whose sample count it leaves out.
   */
  void history(SnapshotCodec.Out out, int depth, int samples) {
    if (!packed) {
      out.uvarint(depth);
      out.uvarint(samples);
    } else if (samples == depth) {
      out.uvarint((long) depth << 1 | 1);
    } else {
      out.uvarint((long) depth << 1);
      out.uvarint(samples);
    }
  }

  /**
   * A stream's name, descriptor, role and type (when not a code) and fingerprint; its current
   * value follows, then its last present value when {@code lastPresent}, then (when
   * {@code state}) its history depth, samples and operators.
   */
  void streamHead(SnapshotCodec.Out out, String name, String role, String declaredType,
      String fingerprint, boolean lastPresent, boolean state) {
    out.vstr(name);
    int roleCode = SnapshotCodecV2.roleCode(role);
    int type = SnapshotCodecV2.typeCode(declaredType);
    Hash fp = Hash.of(fingerprint, fingerprintDigits);
    boolean fpBytes = fp != null;
    out.u8(roleCode | type << 2 | (fpBytes ? 0 : D_FINGERPRINT_STRING)
        | (lastPresent ? D_LAST_PRESENT : 0) | (state ? D_STATE : 0));
    if (roleCode == SnapshotCodecV2.ROLE_STRING) {
      out.vstr(role);
    }
    if (type == SnapshotCodecV2.TYPE_STRING) {
      out.vstr(declaredType);
    }
    hash(out, fingerprint, fp);
  }

  /**
   * An operator's kind and value count: its one-byte code, or 0 and the name, then the count;
   * in version 5 a code and a count of 1 to {@link #PACKED_VALUES} as one packed head byte.
   */
  void operator(SnapshotCodec.Out out, String kind, int values) {
    int code = SnapshotCodecV2.kindCode(kind);
    if (packed && code != 0 && values >= 1 && values <= PACKED_VALUES) {
      out.u8(PACKED + (values - 1) * PACKED_KINDS + code - 1);
      return;
    }
    if (code == 0) {
      out.u8(0);
      out.vstr(kind);
    } else {
      out.uvarint(code);
    }
    out.uvarint(values);
  }

  /** A size that holds the usual snapshot, so the buffer rarely grows. */
  private static int estimate(MonitorSnapshot s) {
    int n = 48 + s.programName().length();
    for (StreamState st : s.streams()) {
      n += 16 + st.name().length() + 3 * st.history().size();
      for (OperatorState op : st.operators()) {
        n += 2 + 2 * op.values().size();
      }
    }
    return n;
  }

  void values(SnapshotCodec.Out out, List<Value> vs) {
    out.uvarint(vs.size());
    for (int i = 0, n = vs.size(); i < n; i++) {
      value(out, vs.get(i));
    }
  }

  void value(SnapshotCodec.Out out, Value v) {
    switch (v.kind()) {
      case Kind.NOVAL -> out.u8(SnapshotCodecV2.T_NOVAL);
      case Kind.DEFERRED -> out.u8(SnapshotCodecV2.T_DEFERRED);
      case Kind.UNIT -> out.u8(SnapshotCodecV2.T_UNIT);
      case Kind.BOOL -> out.u8(v.asBoolean() ? SnapshotCodecV2.T_TRUE : SnapshotCodecV2.T_FALSE);
      case Kind.INT -> intValue(out, v.asLong());
      case Kind.FLOAT -> floatValue(out, Double.doubleToRawLongBits(v.asDouble()));
      case Kind.STR -> {
        out.u8(SnapshotCodecV2.T_STR);
        out.vstr(v.asString());
      }
      case Kind.LIST -> {
        out.u8(SnapshotCodecV2.T_LIST);
        values(out, v.asList());
      }
      case Kind.MAP -> {
        out.u8(SnapshotCodecV2.T_MAP);
        out.uvarint(v.asMap().size());
        for (var e : v.asMap().entrySet()) {
          out.vstr(e.getKey());
          value(out, e.getValue());
        }
      }
      default -> throw new IllegalArgumentException("a snapshot cannot hold " + v);
    }
  }

  /** An Int: in the tag byte, as a reference to a recent literal, or a literal. */
  void intValue(SnapshotCodec.Out out, long x) {
    if (x >= SMALL_MIN && x <= SMALL_MAX) {
      out.u8((int) (x + SMALL_ZERO));
      return;
    }
    int k = recentIndex(x);
    if (k >= 0) {
      out.u8(T_RECENT + k);
    } else {
      out.u8(SnapshotCodecV2.T_INT);
      out.svarint(x);
      remember(x);
    }
  }

  /** A Float by its raw bits. */
  static void floatValue(SnapshotCodec.Out out, long rawBits) {
    out.u8(SnapshotCodecV2.T_FLOAT);
    out.i64(rawBits);
  }

  /** Where {@code x} is among the recent Int literals (0 the newest), or -1. */
  private int recentIndex(long x) {
    int n = Math.min(written, RECENT);
    for (int k = 0; k < n; k++) {
      if (recent[(written - 1 - k) & (RECENT - 1)] == x) {
        return k;
      }
    }
    return -1;
  }

  /** Remembers an Int literal written or read. */
  void remember(long x) {
    recent[written & (RECENT - 1)] = x;
    written++;
  }

  /** Whether a hash is {@code digits} lowercase hex digits (what has the byte form). */
  static boolean isHash(String text, int digits) {
    if (text.length() != digits) {
      return false;
    }
    for (int i = 0; i < digits; i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  private static void hash(SnapshotCodec.Out out, String text, Hash h) {
    if (h == null) {
      out.vstr(text);
      return;
    }
    int n = h.text.length() / 2;
    out.ensure(n);
    for (int i = n - 1; i >= 0; i--) {
      out.buf[out.pos++] = (byte) (h.bits >>> (8 * i));
    }
  }

  /**
   * A hash of 8 or 16 lowercase hex digits and its bits (the bytes it is written as), cached
   * both ways: a monitor's snapshots name the same key and fingerprints every time, and
   * converting them between text and bytes was about 8% of a small snapshot's round trip.
   * The caches are direct-mapped tables of immutable entries; a race only converts again.
   */
  static final class Hash {
    private static final int SIZE = 1024;
    private static final Hash[] BY_TEXT = new Hash[SIZE];
    private static final Hash[] BY_BITS = new Hash[SIZE];

    final String text;
    final long bits;

    private Hash(String text, long bits) {
      this.text = text;
      this.bits = bits;
    }

    /** {@code text} with its bits when it is {@code digits} lowercase hex digits, else null. */
    static Hash of(String text, int digits) {
      int i = (text.hashCode() * 0x9E3779B9) >>> 22; // SIZE is 2^10
      for (int k = 0; k < 2; k++) { // two ways: a program's hashes that collide both stay
        Hash h = BY_TEXT[(i + k) & (SIZE - 1)];
        if (h != null && (h.text == text || h.text.equals(text))) {
          return h.text.length() == digits ? h : null;
        }
      }
      if (!isHash(text, digits)) {
        return null;
      }
      long bits = 0;
      for (int k = 0; k < digits; k++) {
        bits = bits << 4 | Character.digit(text.charAt(k), 16);
      }
      Hash h = new Hash(text, bits);
      put(BY_TEXT, i, h);
      return h;
    }

    /** The text of the {@code digits} hex digits whose bits are {@code bits}. */
    static String text(long bits, int digits) {
      int i = (int) ((bits ^ (bits >>> 29) ^ (bits >>> 41)) * 0x9E3779B9L >>> 22) & (SIZE - 1);
      for (int k = 0; k < 2; k++) {
        Hash h = BY_BITS[(i + k) & (SIZE - 1)];
        if (h != null && h.bits == bits && h.text.length() == digits) {
          return h.text;
        }
      }
      byte[] c = new byte[digits];
      for (int k = 0; k < digits; k++) {
        c[k] = (byte) HEX[(int) (bits >>> (4 * (digits - 1 - k))) & 0xF];
      }
      Hash h = new Hash(new String(c, java.nio.charset.StandardCharsets.ISO_8859_1), bits);
      put(BY_BITS, i, h);
      return h.text;
    }

    /** Into the first free of the two ways at {@code i}, else over the first. */
    private static void put(Hash[] table, int i, Hash h) {
      int j = (i + 1) & (SIZE - 1);
      table[table[i] == null || table[j] != null ? i : j] = h;
    }
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private static String hex(SnapshotCodec.In in, String what, int digits) {
    int n = digits / 2;
    in.need(n, what);
    long bits = 0;
    for (int i = 0; i < n; i++) {
      bits = bits << 8 | (in.data[in.pos + i] & 0xFF);
    }
    in.pos += n;
    return Hash.text(bits, digits);
  }

  /** A hash written as a string must not be one that has the byte form. */
  private static String notAHash(SnapshotCodec.In in, int at, String s, String what,
      int digits) {
    if (isHash(s, digits)) {
      throw new SnapshotException(at, what + " written as a string (it has the "
          + digits / 2 + "-byte form)");
    }
    return s;
  }

  // ---- checking without records ----

  /**
   * Checks a version 5 snapshot ({@code in} stands after its version byte) in one pass that
   * builds no records: the same structure, values, one-encoding rules and checksum as
   * {@link #read}, for the snapshots made of what a monitor of plain equations writes (Ints,
   * Floats, Bools, NoVal, Unit, kinds with a code, ASCII names, hashes in their byte form, no
   * failure). Returns the snapshot holding {@code bytes} (its streams are read from them when
   * asked), or null when the content has a part this pass leaves to {@link #read} or when
   * anything is wrong with it: the caller then reads it with {@link #read}, which refuses a bad
   * file with its offset and reason (docs/decisions.md, "A restore into the same program reads
   * the snapshot's bytes into the slots").
   */
  static MonitorSnapshot checked(SnapshotCodec.In in, byte[] bytes) {
    try {
      return new SnapshotCodecV3(VERSION5).check(in, bytes);
    } catch (SnapshotException e) {
      return null;
    }
  }

  private MonitorSnapshot check(SnapshotCodec.In in, byte[] bytes) {
    int flags = in.u8("the header flags");
    if ((flags & ~(F_REVISION | F_SUFFIX | STREAMS)) != 0) {
      return null; // a failure, a key as a string, unknown flags: read
    }
    String program = ascii(in);
    if (program == null) {
      return null;
    }
    if ((flags & F_SUFFIX) != 0) {
      program = program.concat(SUFFIX);
    } else if (program.endsWith(SUFFIX)) {
      return null;
    }
    String key = hex(in, "the definition key", 16);
    long nextTick = in.uvarint("the next tick");
    if (nextTick < 0) {
      return null;
    }
    MonitorRevision revision = MonitorRevision.INITIAL;
    if ((flags & F_REVISION) != 0) {
      long root = in.svarint("the revision");
      long properties = in.svarint("the revision");
      if (root == 0 && properties == 0) {
        return null;
      }
      revision = new MonitorRevision(root, properties);
    }
    int n = flags >>> 4;
    if (n-- == 0) {
      n = in.vcount("the stream count", 4);
      if (n <= STREAMS_IN_FLAGS) {
        return null;
      }
    }
    for (int i = 0; i < n; i++) {
      if (!checkStream(in)) {
        return null;
      }
    }
    in.checksum();
    return new MonitorSnapshot(program, key, nextTick, revision, null, bytes, bytes.length);
  }

  /** A string of ASCII characters (what {@code vstr} reads without a decoder), else null. */
  private static String ascii(SnapshotCodec.In in) {
    int len = in.vcount("a string", 1);
    byte[] data = in.data;
    for (int i = in.pos, end = in.pos + len; i < end; i++) {
      if (data[i] < 0) {
        return null;
      }
    }
    String s = new String(data, in.pos, len, java.nio.charset.StandardCharsets.ISO_8859_1);
    in.pos += len;
    return s;
  }

  private boolean checkStream(SnapshotCodec.In in) {
    int len = in.vcount("a stream name", 1);
    byte[] data = in.data;
    for (int i = in.pos, end = in.pos + len; i < end; i++) {
      if (data[i] < 0) {
        return false;
      }
    }
    in.pos += len;
    int desc = in.u8("a stream descriptor");
    int typeCode = (desc >>> 2) & 7;
    if ((desc & 3) == SnapshotCodecV2.ROLE_STRING || typeCode == SnapshotCodecV2.TYPE_STRING
        || (desc & D_FINGERPRINT_STRING) != 0) {
      return false; // a role or type as a string (or none such), a fingerprint as a string
    }
    in.need(fingerprintDigits / 2, "a stream fingerprint");
    in.pos += fingerprintDigits / 2;
    if (checkValue(in) < 0) {
      return false;
    }
    if ((desc & D_LAST_PRESENT) != 0) {
      int tag = checkValue(in);
      if (tag <= SnapshotCodecV2.T_DEFERRED) { // NoVal written out, Deferred: not present
        return false;
      }
    }
    if ((desc & D_STATE) == 0) {
      return true;
    }
    long head = in.uvarint("a history depth");
    long depth = head >>> 1;
    if (head < 0 || depth > Integer.MAX_VALUE) {
      return false;
    }
    int samples;
    if ((head & 1) != 0) {
      samples = in.fits(depth, in.pos, "a history length", 1);
    } else {
      samples = in.vcount("a history length", 1);
      if (samples >= depth) {
        return false;
      }
    }
    for (int i = 0; i < samples; i++) {
      if (checkValue(in) < 0) {
        return false;
      }
    }
    int ops = in.vcount("an operator count", 2);
    if (depth == 0 && ops == 0) {
      return false;
    }
    for (int j = 0; j < ops; j++) {
      int opHead = in.u8("an operator head");
      int values;
      if (opHead >= PACKED) {
        if (opHead >= PACKED_END) {
          return false;
        }
        values = in.fits(1 + (opHead - PACKED) / PACKED_KINDS, in.pos,
            "an operator's value count", 1);
      } else if (opHead == 0) {
        return false; // a kind as a string: read
      } else {
        values = in.vcount("an operator's value count", 1);
        if (values >= 1 && values <= PACKED_VALUES) {
          return false;
        }
      }
      for (int i = 0; i < values; i++) {
        if (checkValue(in) < 0) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Checks one value as {@link #value} reads it; its tag (the tag byte for a small Int, a
   * reference or a literal), or -1 when it is wrong or a Str, List or Map (left to {@link #read}).
   */
  private int checkValue(SnapshotCodec.In in) {
    int tag = in.u8("a value's tag");
    if (tag >= T_SMALL || tag <= SnapshotCodecV2.T_TRUE) {
      return tag;
    }
    if (tag == SnapshotCodecV2.T_INT) {
      long x = in.svarint("an Int");
      if (x >= SMALL_MIN && x <= SMALL_MAX || recentIndex(x) >= 0) {
        return -1;
      }
      remember(x);
      return tag;
    }
    if (tag == SnapshotCodecV2.T_FLOAT) {
      in.need(8, "a Float");
      in.pos += 8;
      return tag;
    }
    if (tag >= T_RECENT && tag < T_RECENT + RECENT && tag - T_RECENT < written) {
      return tag;
    }
    return -1;
  }

  // ---- reading into a monitor's slots (SnapshotReader) ----

  /** A reader of a version 5 snapshot's values (SnapshotReader). */
  static SnapshotCodecV3 reader() {
    return new SnapshotCodecV3(VERSION5);
  }

  /** The Int literal {@code k} back (0 the newest) among those read (the bytes were checked). */
  long recent(int k) {
    return recent[(written - 1 - k) & (RECENT - 1)];
  }

  // ---- reading ----

  /** The content after magic and version ({@code in} stands after it), of version 3 to 5. */
  static MonitorSnapshot decode(SnapshotCodec.In in, int version) {
    return new SnapshotCodecV3(version).read(in);
  }

  private MonitorSnapshot read(SnapshotCodec.In in) {
    int flagsAt = in.pos;
    int flags = in.u8("the header flags");
    int known = F_FAILURE | F_KEY_STRING | F_REVISION | (packed ? F_SUFFIX | STREAMS : 0);
    if ((flags & ~known) != 0) {
      throw new SnapshotException(flagsAt, "unknown header flags " + Integer.toHexString(flags));
    }
    int nameAt = in.pos;
    String program = in.vstr("the program name");
    if ((flags & F_SUFFIX) != 0) {
      program = program.concat(SUFFIX);
    } else if (packed && program.endsWith(SUFFIX)) {
      throw new SnapshotException(nameAt, "the program name '" + program + "' written with its "
          + SUFFIX + " (its header flag is shorter)");
    }
    int keyAt = in.pos;
    String key = (flags & F_KEY_STRING) != 0
        ? notAHash(in, keyAt, in.vstr("the definition key"), "the definition key", 16)
        : hex(in, "the definition key", 16);
    long tickAt = in.pos;
    long nextTick = in.uvarint("the next tick");
    if (nextTick < 0) {
      throw new SnapshotException(tickAt, "negative next tick " + nextTick);
    }
    MonitorRevision revision = MonitorRevision.INITIAL;
    if ((flags & F_REVISION) != 0) {
      int revAt = in.pos;
      long root = in.svarint("the revision");
      long properties = in.svarint("the revision");
      if (root == 0 && properties == 0) {
        throw new SnapshotException(revAt, "a zero revision written out (its flag is for a "
            + "revision other than zero)");
      }
      revision = new MonitorRevision(root, properties);
    }
    Failure failure = null;
    if ((flags & F_FAILURE) != 0) {
      long tick = in.svarint("the failure's tick");
      String stream = in.flag("the failure's stream flag") == 1 ? in.vstr("the failure's stream")
          : null;
      failure = new Failure(tick, stream, in.vstr("the failure's reason"));
    }
    int n = (flags >>> 4) - 1;
    if (n < 0) {
      int countAt = in.pos;
      n = in.vcount("the stream count", 4);
      if (packed && n <= STREAMS_IN_FLAGS) {
        throw new SnapshotException(countAt, "stream count " + n + " written out (it fits the "
            + "header flags)");
      }
    }
    StreamState[] streams = new StreamState[n];
    for (int i = 0; i < n; i++) {
      streams[i] = stream(in);
    }
    in.checksum();
    return new MonitorSnapshot(version, program, key, nextTick, revision, failure,
        OwnedList.of(streams));
  }

  private StreamState stream(SnapshotCodec.In in) {
    int at = in.pos;
    String name = in.vstr("a stream name");
    int descAt = in.pos;
    int desc = in.u8("a stream descriptor");
    int typeCode = (desc >>> 2) & 7;
    String role = SnapshotCodecV2.role(in, desc & 3);
    String declaredType = SnapshotCodecV2.type(in, descAt, typeCode);
    int fpAt = in.pos;
    String fingerprint = (desc & D_FINGERPRINT_STRING) != 0
        ? notAHash(in, fpAt, in.vstr("a stream fingerprint"), "a stream fingerprint",
            fingerprintDigits)
        : hex(in, "a stream fingerprint", fingerprintDigits);
    Value current = value(in, 0);
    Value lastPresent = Value.NOVAL;
    if ((desc & D_LAST_PRESENT) != 0) {
      int lastAt = in.pos;
      lastPresent = value(in, 0);
      if (lastPresent == Value.NOVAL) {
        throw new SnapshotException(lastAt, "stream '" + name + "': a NoVal last present value "
            + "written out (its flag is for a present one)");
      }
      if (!lastPresent.isPresent()) {
        throw new SnapshotException(at, "stream '" + name + "': last present value is "
            + lastPresent);
      }
    }
    if ((desc & D_STATE) == 0) {
      return new StreamState(name, role, declaredType, fingerprint, current, lastPresent, 0,
          List.of(), List.of());
    }
    long depthAt = in.pos;
    long head = in.uvarint("a history depth");
    long depth = packed ? head >>> 1 : head;
    if (head < 0 || depth > Integer.MAX_VALUE) {
      throw new SnapshotException(depthAt, "history depth " + Long.toUnsignedString(depth)
          + " out of range");
    }
    int samplesAt = in.pos;
    int samples = packed && (head & 1) != 0
        ? in.fits(depth, samplesAt, "a history length", 1)
        : in.vcount("a history length", 1);
    List<Value> history = values(in, samples);
    if (samples > depth) {
      throw new SnapshotException(depthAt, "stream '" + name + "' holds " + samples
          + " history samples for a depth of " + depth);
    }
    if (packed && (head & 1) == 0 && samples == depth) {
      throw new SnapshotException(samplesAt, "stream '" + name + "': a full history's sample "
          + "count written out (its flag is in the depth)");
    }
    int opsAt = in.pos;
    int ops = in.vcount("an operator count", 2);
    if (depth == 0 && ops == 0) {
      throw new SnapshotException(opsAt, "stream '" + name + "': no history and no operators "
          + "written out (its flag is for a stream with either)");
    }
    OperatorState[] operators = new OperatorState[ops];
    for (int j = 0; j < ops; j++) {
      operators[j] = operator(in);
    }
    return new StreamState(name, role, declaredType, fingerprint, current, lastPresent,
        (int) depth, history, OwnedList.of(operators));
  }

  /** An operator's head (kind and value count; packed in version 5) and its values. */
  private OperatorState operator(SnapshotCodec.In in) {
    int headAt = in.pos;
    if (packed) {
      int head = in.u8("an operator head");
      if (head >= PACKED_END) {
        throw new SnapshotException(headAt, "operator head " + head + " out of range");
      }
      if (head >= PACKED) {
        int values = in.fits(1 + (head - PACKED) / PACKED_KINDS, in.pos,
            "an operator's value count", 1);
        return new OperatorState(SnapshotCodecV2.KINDS.get((head - PACKED) % PACKED_KINDS),
            values(in, values));
      }
      in.pos = headAt; // a code below PACKED, or 0 and a string kind: as in version 4
    }
    String kind = SnapshotCodecV2.kind(in);
    int values = in.vcount("an operator's value count", 1);
    // A code (not 0 and a string kind) with a count the packed head holds is the long form.
    if (packed && values >= 1 && values <= PACKED_VALUES && in.data[headAt] != 0) {
      throw new SnapshotException(headAt, "operator " + kind + " with " + values + " values "
          + "written long (its head packs them)");
    }
    return new OperatorState(kind, values(in, values));
  }

  private List<Value> values(SnapshotCodec.In in, int n) {
    if (n == 0) {
      return List.of();
    }
    Value[] out = new Value[n];
    for (int i = 0; i < n; i++) {
      out[i] = value(in, 0);
    }
    return OwnedList.of(out); // the records keep it without a copy
  }

  Value value(SnapshotCodec.In in, int depth) {
    int at = in.pos;
    if (depth > SnapshotCodec.MAX_NESTING) {
      throw new SnapshotException(at, "values nest deeper than " + SnapshotCodec.MAX_NESTING);
    }
    int tag = in.u8("a value's tag");
    if (tag >= T_SMALL) {
      return SMALL_INTS[tag - T_SMALL];
    }
    switch (tag) {
      case SnapshotCodecV2.T_NOVAL:
        return Value.NOVAL;
      case SnapshotCodecV2.T_DEFERRED:
        return Value.DEFERRED;
      case SnapshotCodecV2.T_UNIT:
        return Value.UNIT;
      case SnapshotCodecV2.T_FALSE:
        return Value.FALSE;
      case SnapshotCodecV2.T_TRUE:
        return Value.TRUE;
      case SnapshotCodecV2.T_INT: {
        long x = in.svarint("an Int");
        if (x >= SMALL_MIN && x <= SMALL_MAX) {
          throw new SnapshotException(at, "Int " + x + " written long (it fits the tag byte)");
        }
        if (recentIndex(x) >= 0) {
          throw new SnapshotException(at, "Int " + x + " written again (a reference to it "
              + "is shorter)");
        }
        remember(x);
        return Value.of(x);
      }
      case SnapshotCodecV2.T_FLOAT:
        return Value.of(Double.longBitsToDouble(in.i64("a Float")));
      case SnapshotCodecV2.T_STR:
        return Value.of(in.vstr("a Str"));
      case SnapshotCodecV2.T_LIST:
        return SnapshotCodecV2.list(in, depth, this::value);
      case SnapshotCodecV2.T_MAP:
        return SnapshotCodecV2.map(in, depth, this::value);
      default:
        if (tag >= T_RECENT && tag < T_RECENT + RECENT) {
          int k = tag - T_RECENT;
          if (k >= written) {
            throw new SnapshotException(at, "a reference to Int literal " + (k + 1)
                + " back, but " + written + " were written");
          }
          return Value.of(recent[(written - 1 - k) & (RECENT - 1)]);
        }
        throw new SnapshotException(at, "unknown value tag " + tag);
    }
  }
}
