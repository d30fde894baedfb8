package io.dataflow.core.snapshot;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The binary format of a {@link MonitorSnapshot} (docs/snapshots.md has the layout table).
 * Separate from the record so the record stays a plain data carrier; package-private because
 * the format is reached only through {@code MonitorSnapshot.write/read}.
 *
 * <p>The decoder works on the whole input in memory and checks every length and count against
 * the bytes that remain (every element takes at least one byte), so a hostile length never
 * makes it allocate more than the input's own size.
 */
final class SnapshotCodec {
  /** {@code 0x89 D F S N P \r \n}: not text, and a transfer that mangles line ends shows. */
  static final byte[] MAGIC = {(byte) 0x89, 'D', 'F', 'S', 'N', 'P', '\r', '\n'};
  /**
   * Format version 4 on: the first 4 bytes of {@link #MAGIC}, then the version as one byte,
   * which is never {@code 'N'} (the fifth byte of {@link #MAGIC}: versions 1 to 3 follow).
   */
  static final byte[] MAGIC4 = {(byte) 0x89, 'D', 'F', 'S'};
  /** The largest snapshot read (a guard against endless streams). */
  static final int MAX_BYTES = 1 << 30;
  /** How deeply lists and maps may nest. */
  static final int MAX_NESTING = 256;
  private static final int HEADER = MAGIC.length + 2;

  private SnapshotCodec() {}

  // ---- writing ----

  static byte[] encode(MonitorSnapshot s) {
    return switch (s.formatVersion()) {
      case 1 -> encodeV1(s);
      case 2 -> SnapshotCodecV2.encode(s);
      case 3, 4, 5 -> SnapshotCodecV3.encode(s);
      default -> throw new IllegalArgumentException("format version " + s.formatVersion()
          + " cannot be written: this library writes versions 1 to "
          + MonitorSnapshot.FORMAT_VERSION);
    };
  }

  private static byte[] encodeV1(MonitorSnapshot s) {
    Out out = new Out(256);
    out.raw(MAGIC);
    out.u16(1);
    out.str(s.programName());
    out.str(s.definitionKey());
    out.i64(s.nextTick());
    out.i64(s.revision().root());
    out.i64(s.revision().properties());
    Failure f = s.failure();
    if (f == null) {
      out.u8(0);
    } else {
      out.u8(1);
      out.i64(f.tick());
      out.optStr(f.stream());
      out.str(f.reason());
    }
    out.u32(s.streams().size());
    for (StreamState st : s.streams()) {
      out.str(st.name());
      out.str(st.role());
      out.optStr(st.declaredType());
      out.str(st.fingerprint());
      out.value(st.current());
      out.value(st.lastPresent());
      out.u32(st.historyDepth());
      out.values(st.history());
      out.u32(st.operators().size());
      for (OperatorState op : st.operators()) {
        out.str(op.kind());
        out.values(op.values());
      }
    }
    return out.finish();
  }

  /**
   * A growable big-endian byte buffer (not {@code ByteArrayOutputStream}, whose synchronized
   * byte-at-a-time writes made encoding the slowest part of a snapshot).
   */
  static final class Out {
    byte[] buf;
    int pos;

    Out(int capacity) {
      buf = new byte[Math.max(capacity, 16)];
    }

    void ensure(int n) {
      if (buf.length - pos < n) {
        buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
      }
    }

    void raw(byte[] b) {
      ensure(b.length);
      System.arraycopy(b, 0, buf, pos, b.length);
      pos += b.length;
    }

    void u8(int v) {
      ensure(1);
      buf[pos++] = (byte) v;
    }

    void u16(int v) {
      ensure(2);
      buf[pos++] = (byte) (v >>> 8);
      buf[pos++] = (byte) v;
    }

    void u32(int v) {
      ensure(4);
      buf[pos++] = (byte) (v >>> 24);
      buf[pos++] = (byte) (v >>> 16);
      buf[pos++] = (byte) (v >>> 8);
      buf[pos++] = (byte) v;
    }

    void i64(long v) {
      u32((int) (v >>> 32));
      u32((int) v);
    }

    /** Unsigned LEB128: seven bits a byte, least significant first. */
    void uvarint(long v) {
      ensure(10);
      while ((v & ~0x7FL) != 0) {
        buf[pos++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      buf[pos++] = (byte) v;
    }

    /** A signed number, zigzag-mapped so small magnitudes take few bytes. */
    void svarint(long v) {
      uvarint((v << 1) ^ (v >> 63));
    }

    void str(String s) {
      byte[] b = utf8(s);
      u32(b.length);
      raw(b);
    }

    /** A string with a varint length (format version 2). */
    void vstr(String s) {
      vstr(s, s.length());
    }

    /** The first {@code n} chars of {@code s} as {@link #vstr(String)} writes them. */
    void vstr(String s, int n) {
      if (n < 0x80) { // the usual name: ASCII, copied without an encoded copy
        ensure(1 + n);
        int at = pos;
        buf[at] = (byte) n;
        for (int i = 0; i < n; i++) {
          char c = s.charAt(i);
          if (c >= 0x80) {
            vstrEncoded(n == s.length() ? s : s.substring(0, n));
            return;
          }
          buf[at + 1 + i] = (byte) c;
        }
        pos = at + 1 + n;
        return;
      }
      vstrEncoded(n == s.length() ? s : s.substring(0, n));
    }

    private void vstrEncoded(String s) {
      byte[] b = utf8(s);
      uvarint(b.length);
      raw(b);
    }

    /** The bytes written so far and the checksum, in {@link #buf} (not trimmed: {@link #pos}). */
    void finishUntrimmed() {
      CRC32C crc = new CRC32C();
      crc.update(buf, 0, pos);
      u32((int) crc.getValue());
    }

    void optStr(String s) {
      if (s == null) {
        u8(0);
      } else {
        u8(1);
        str(s);
      }
    }

    void values(List<Value> vs) {
      u32(vs.size());
      for (Value v : vs) {
        value(v);
      }
    }

    void value(Value v) {
      u8(v.kind());
      switch (v.kind()) {
        case Kind.INT -> i64(v.asLong());
        case Kind.FLOAT -> i64(Double.doubleToRawLongBits(v.asDouble()));
        case Kind.STR -> str(v.asString());
        case Kind.BOOL -> u8(v.asBoolean() ? 1 : 0);
        case Kind.LIST -> {
          u32(v.asList().size());
          for (Value e : v.asList()) {
            value(e);
          }
        }
        case Kind.MAP -> {
          u32(v.asMap().size());
          for (var e : v.asMap().entrySet()) {
            str(e.getKey());
            value(e.getValue());
          }
        }
        default -> { } // Unit, NoVal, Deferred: the tag is the value
      }
    }

    /** Appends the CRC32C of everything written and returns the bytes. */
    byte[] finish() {
      CRC32C crc = new CRC32C();
      crc.update(buf, 0, pos);
      u32((int) crc.getValue());
      return pos == buf.length ? buf : java.util.Arrays.copyOf(buf, pos);
    }
  }

  private static byte[] utf8(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return s.getBytes(StandardCharsets.UTF_8);
      }
    }
    return s.getBytes(StandardCharsets.ISO_8859_1); // ASCII: one byte a char, no encoder
  }

  // ---- reading ----

  /**
   * What {@code MonitorSnapshot.fromBytes} and {@code read} return: a version 5 snapshot of
   * plain content checked in one pass without its records ({@link SnapshotCodecV3#checked}),
   * holding its bytes (a copy unless {@code owned}), or else {@link #decode}'s, which refuses a
   * bad file.
   */
  static MonitorSnapshot read(byte[] data, boolean owned) {
    if (data.length > MAGIC4.length && data[MAGIC4.length] == SnapshotCodecV3.VERSION5
        && data[0] == MAGIC4[0] && data[1] == MAGIC4[1] && data[2] == MAGIC4[2]
        && data[3] == MAGIC4[3]) {
      byte[] own = owned ? data : data.clone();
      In in = new In(own);
      in.pos = MAGIC4.length + 1;
      MonitorSnapshot s = SnapshotCodecV3.checked(in, own);
      if (s != null) {
        return s;
      }
    }
    return decode(data);
  }

  static MonitorSnapshot decode(byte[] data) {
    In in = new In(data);
    try {
      return decodeChecked(in);
    } catch (SnapshotException e) {
      // A structural error in a file whose checksum does not match is reported as corruption.
      int header = data.length > MAGIC4.length && data[MAGIC4.length] != MAGIC[MAGIC4.length]
          ? MAGIC4.length + 1 : HEADER;
      if (!in.ranOut && data.length >= header + 4
          && !checksumMatches(data, data.length - 4) && e.offset() >= header) {
        throw new SnapshotException(data.length - 4, "checksum mismatch (the file is corrupt;"
            + " reading had stopped at offset " + e.offset() + ": " + e.getMessage() + ")");
      }
      throw e;
    }
  }

  private static MonitorSnapshot decodeChecked(In in) {
    byte[] data = in.data;
    for (int i = 0; i <= MAGIC4.length; i++) {
      if (i >= data.length) {
        throw new SnapshotException(i, i < MAGIC4.length ? "truncated in the magic bytes"
            : "truncated before the format version");
      }
      if (i < MAGIC4.length && data[i] != MAGIC4[i]) {
        throw new SnapshotException(i, "not a dataflow monitor snapshot (foreign magic bytes)");
      }
    }
    if (data[MAGIC4.length] != MAGIC[MAGIC4.length]) {
      in.pos = MAGIC4.length;
      int version = in.u8("the format version");
      if (version == SnapshotCodecV3.VERSION4 || version == SnapshotCodecV3.VERSION5) {
        return SnapshotCodecV3.decode(in, version);
      }
      throw new SnapshotException(MAGIC4.length, "format version " + version + " is not "
          + "supported: this reader accepts versions 1 to " + MonitorSnapshot.FORMAT_VERSION);
    }
    for (int i = MAGIC4.length; i < MAGIC.length; i++) {
      if (i >= data.length) {
        throw new SnapshotException(i, "truncated in the magic bytes");
      }
      if (data[i] != MAGIC[i]) {
        throw new SnapshotException(i, "not a dataflow monitor snapshot (foreign magic bytes)");
      }
    }
    in.pos = MAGIC.length;
    int version = in.u16("the format version");
    if (version == SnapshotCodecV3.VERSION) {
      return SnapshotCodecV3.decode(in, version);
    }
    if (version == 2) {
      return SnapshotCodecV2.decode(in);
    }
    if (version != 1) {
      throw new SnapshotException(MAGIC.length, "format version " + version + " is not "
          + "supported: this reader accepts versions 1 to " + MonitorSnapshot.FORMAT_VERSION
          + " (1 to 3 after these 8 magic bytes, 4 on after the first 4 of them)");
    }
    String program = in.str("the program name");
    String key = in.str("the definition key");
    long nextTick = in.i64("the next tick");
    if (nextTick < 0) {
      throw new SnapshotException(in.pos - 8, "negative next tick " + nextTick);
    }
    MonitorRevision revision = new MonitorRevision(in.i64("the revision"),
        in.i64("the revision"));
    Failure failure = null;
    int hasFailure = in.flag("the failure flag");
    if (hasFailure == 1) {
      long tick = in.i64("the failure's tick");
      String stream = in.flag("the failure's stream flag") == 1 ? in.str("the failure's stream")
          : null;
      failure = new Failure(tick, stream, in.str("the failure's reason"));
    }
    int n = in.count("the stream count", 1);
    List<StreamState> streams = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long at = in.pos;
      String name = in.str("a stream name");
      String role = in.str("a stream role");
      String declaredType = in.flag("a declared type flag") == 1 ? in.str("a declared type")
          : null;
      String fingerprint = in.str("a stream fingerprint");
      Value current = in.value(0);
      Value lastPresent = in.value(0);
      long depthAt = in.pos;
      int depth = in.u32("a history depth");
      if (depth < 0) {
        throw new SnapshotException(depthAt, "negative history depth " + depth);
      }
      List<Value> history = in.values("a history length");
      if (history.size() > depth) {
        throw new SnapshotException(depthAt, "stream '" + name + "' holds " + history.size()
            + " history samples for a depth of " + depth);
      }
      int ops = in.count("an operator count", 5);
      List<OperatorState> operators = new ArrayList<>(ops);
      for (int j = 0; j < ops; j++) {
        operators.add(new OperatorState(in.str("an operator kind"),
            in.values("an operator's value count")));
      }
      if (!lastPresent.isPresent() && lastPresent != Value.NOVAL) {
        throw new SnapshotException(at, "stream '" + name + "': last present value is "
            + lastPresent);
      }
      streams.add(new StreamState(name, role, declaredType, fingerprint, current, lastPresent, depth, history,
          operators));
    }
    in.checksum();
    return new MonitorSnapshot(version, program, key, nextTick, revision, failure, streams);
  }

  private static boolean checksumMatches(byte[] data, int crcAt) {
    if (crcAt < 0 || crcAt + 4 > data.length) {
      return false;
    }
    CRC32C crc = new CRC32C();
    crc.update(data, 0, crcAt);
    int stored = ((data[crcAt] & 0xFF) << 24) | ((data[crcAt + 1] & 0xFF) << 16)
        | ((data[crcAt + 2] & 0xFF) << 8) | (data[crcAt + 3] & 0xFF);
    return (int) crc.getValue() == stored;
  }

  static final class In {
    final byte[] data;
    int pos;
    /** Whether reading stopped because the input ended (truncation, not corruption). */
    boolean ranOut;

    In(byte[] data) {
      this.data = data;
    }

    /** The CRC32C that ends the input, checked against every byte before it. */
    void checksum() {
      int crcAt = pos;
      int stored = u32("the checksum");
      if (pos != data.length) {
        throw new SnapshotException(pos, (data.length - pos) + " bytes after the checksum");
      }
      if (!checksumMatches(data, crcAt)) {
        throw new SnapshotException(crcAt, "checksum mismatch (the file is corrupt): stored "
            + Integer.toHexString(stored));
      }
    }

    /** An unsigned LEB128 number in its shortest form. */
    long uvarint(String what) {
      if (pos < data.length && data[pos] >= 0) {
        return data[pos++]; // one byte: the usual count, code or small number
      }
      int at = pos;
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        int b = u8(what);
        if (shift == 63 && b > 1) {
          throw new SnapshotException(at, what + ": a varint longer than 64 bits");
        }
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          if (b == 0 && shift > 0) {
            throw new SnapshotException(at, what + ": a varint not in its shortest form");
          }
          return v;
        }
      }
    }

    /** A zigzag-mapped signed varint. */
    long svarint(String what) {
      long u = uvarint(what);
      return (u >>> 1) ^ -(u & 1);
    }

    /** A varint count of elements each at least {@code minBytes} long. */
    int vcount(String what, int minBytes) {
      int at = pos;
      return fits(uvarint(what), at, what, minBytes);
    }

    /**
     * A count read at {@code at} of elements each at least {@code minBytes} long, checked
     * against the bytes that remain.
     */
    int fits(long n, int at, String what, int minBytes) {
      if (n < 0 || n > (data.length - pos) / minBytes) {
        throw new SnapshotException(at, what + " " + Long.toUnsignedString(n) + " exceeds "
            + "what the remaining " + (data.length - pos) + " bytes can hold (truncated or "
            + "corrupt)");
      }
      return (int) n;
    }

    /** A string with a varint length (format version 2). */
    String vstr(String what) {
      return utf8(vcount(what, 1), what);
    }

    /** {@code n} bytes at the current position: 16 of a binary hash, say. */
    byte[] bytes(int n, String what) {
      need(n, what);
      byte[] b = java.util.Arrays.copyOfRange(data, pos, pos + n);
      pos += n;
      return b;
    }

    void need(int n, String what) {
      if (data.length - pos < n) {
        ranOut = true;
        throw new SnapshotException(pos, "truncated: " + what + " needs " + n + " bytes, "
            + (data.length - pos) + " remain");
      }
    }

    int u8(String what) {
      need(1, what);
      return data[pos++] & 0xFF;
    }

    int flag(String what) {
      int v = u8(what);
      if (v > 1) {
        throw new SnapshotException(pos - 1, what + " must be 0 or 1, got " + v);
      }
      return v;
    }

    int u16(String what) {
      need(2, what);
      int v = ((data[pos] & 0xFF) << 8) | (data[pos + 1] & 0xFF);
      pos += 2;
      return v;
    }

    int u32(String what) {
      need(4, what);
      int v = ((data[pos] & 0xFF) << 24) | ((data[pos + 1] & 0xFF) << 16)
          | ((data[pos + 2] & 0xFF) << 8) | (data[pos + 3] & 0xFF);
      pos += 4;
      return v;
    }

    long i64(String what) {
      need(8, what);
      long hi = u32(what) & 0xFFFFFFFFL;
      long lo = u32(what) & 0xFFFFFFFFL;
      return (hi << 32) | lo;
    }

    /** A count of elements each at least {@code minBytes} long, checked against the rest. */
    int count(String what, int minBytes) {
      int at = pos;
      long n = u32(what) & 0xFFFFFFFFL;
      if (n * minBytes > data.length - pos) {
        throw new SnapshotException(at, what + " " + n + " exceeds what the remaining "
            + (data.length - pos) + " bytes can hold (truncated or corrupt)");
      }
      return (int) n;
    }

    String str(String what) {
      return utf8(count(what, 1), what);
    }

    private String utf8(int len, String what) {
      boolean ascii = true;
      for (int i = pos, end = pos + len; i < end; i++) {
        if (data[i] < 0) {
          ascii = false;
          break;
        }
      }
      if (ascii) { // the common case, without a decoder
        String s = new String(data, pos, len, StandardCharsets.ISO_8859_1);
        pos += len;
        return s;
      }
      try {
        String s = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(data, pos, len)).toString();
        pos += len;
        return s;
      } catch (CharacterCodingException e) {
        throw new SnapshotException(pos, what + " is not valid UTF-8");
      }
    }

    List<Value> values(String what) {
      int n = count(what, 1);
      List<Value> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(value(0));
      }
      return out;
    }

    Value value(int depth) {
      int at = pos;
      if (depth > MAX_NESTING) {
        throw new SnapshotException(at, "values nest deeper than " + MAX_NESTING);
      }
      int kind = u8("a value's kind");
      switch (kind) {
        case Kind.NOVAL:
          return Value.NOVAL;
        case Kind.DEFERRED:
          return Value.DEFERRED;
        case Kind.UNIT:
          return Value.UNIT;
        case Kind.BOOL:
          return Value.of(flag("a Bool") == 1);
        case Kind.INT:
          return Value.of(i64("an Int"));
        case Kind.FLOAT:
          return Value.of(Double.longBitsToDouble(i64("a Float")));
        case Kind.STR:
          return Value.of(str("a Str"));
        case Kind.LIST: {
          int n = count("a List's length", 1);
          List<Value> elements = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            elements.add(element(depth));
          }
          return new Value.List(elements);
        }
        case Kind.MAP: {
          int n = count("a Map's size", 5);
          TreeMap<String, Value> entries = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
          String previous = null;
          for (int i = 0; i < n; i++) {
            int keyAt = pos;
            String k = str("a Map key");
            if (previous != null && ValueFormat.CODE_POINT_ORDER.compare(previous, k) >= 0) {
              throw new SnapshotException(keyAt, "Map keys out of order or repeated: '"
                  + previous + "' then '" + k + "'");
            }
            previous = k;
            entries.put(k, element(depth));
          }
          return new Value.Map(entries);
        }
        default:
          throw new SnapshotException(at, "unknown value kind " + kind);
      }
    }

    private Value element(int depth) {
      int at = pos;
      Value v = value(depth + 1);
      if (!v.isPresent()) {
        throw new SnapshotException(at, "a collection cannot hold " + v);
      }
      return v;
    }
  }
}
