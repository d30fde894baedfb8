package io.dataflow.core.snapshot;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.io.ByteArrayOutputStream;
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
  /** The largest snapshot read (a guard against endless streams). */
  static final int MAX_BYTES = 1 << 30;
  /** How deeply lists and maps may nest. */
  static final int MAX_NESTING = 256;
  private static final int HEADER = MAGIC.length + 2;

  private SnapshotCodec() {}

  // ---- writing ----

  static byte[] encode(MonitorSnapshot s) {
    Out out = new Out();
    out.bytes.writeBytes(MAGIC);
    out.u16(MonitorSnapshot.FORMAT_VERSION);
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
      out.value(st.current(), 0);
      out.value(st.lastPresent(), 0);
      out.u32(st.historyDepth());
      out.values(st.history());
      out.u32(st.operators().size());
      for (OperatorState op : st.operators()) {
        out.str(op.kind());
        out.values(op.values());
      }
    }
    CRC32C crc = new CRC32C();
    byte[] body = out.bytes.toByteArray();
    crc.update(body);
    out.u32((int) crc.getValue());
    return out.bytes.toByteArray();
  }

  private static final class Out {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    void u8(int v) {
      bytes.write(v);
    }

    void u16(int v) {
      bytes.write(v >>> 8);
      bytes.write(v);
    }

    void u32(int v) {
      u16(v >>> 16);
      u16(v & 0xFFFF);
    }

    void i64(long v) {
      u32((int) (v >>> 32));
      u32((int) v);
    }

    void str(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      u32(b.length);
      bytes.writeBytes(b);
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
        value(v, 0);
      }
    }

    void value(Value v, int depth) {
      u8(v.kind());
      switch (v.kind()) {
        case Kind.INT -> i64(v.asLong());
        case Kind.FLOAT -> i64(Double.doubleToRawLongBits(v.asDouble()));
        case Kind.STR -> str(v.asString());
        case Kind.BOOL -> u8(v.asBoolean() ? 1 : 0);
        case Kind.LIST -> {
          u32(v.asList().size());
          for (Value e : v.asList()) {
            value(e, depth + 1);
          }
        }
        case Kind.MAP -> {
          u32(v.asMap().size());
          for (var e : v.asMap().entrySet()) {
            str(e.getKey());
            value(e.getValue(), depth + 1);
          }
        }
        default -> { } // Unit, NoVal, Deferred: the tag is the value
      }
    }
  }

  // ---- reading ----

  static MonitorSnapshot decode(byte[] data) {
    In in = new In(data);
    try {
      return decodeChecked(in);
    } catch (SnapshotException e) {
      // A structural error in a file whose checksum does not match is reported as corruption.
      if (!in.ranOut && data.length >= HEADER + 4
          && !checksumMatches(data, data.length - 4) && e.offset() >= HEADER) {
        throw new SnapshotException(data.length - 4, "checksum mismatch (the file is corrupt;"
            + " reading had stopped at offset " + e.offset() + ": " + e.getMessage() + ")");
      }
      throw e;
    }
  }

  private static MonitorSnapshot decodeChecked(In in) {
    byte[] data = in.data;
    for (int i = 0; i < MAGIC.length; i++) {
      if (i >= data.length) {
        throw new SnapshotException(i, "truncated in the magic bytes");
      }
      if (data[i] != MAGIC[i]) {
        throw new SnapshotException(i, "not a dataflow monitor snapshot (foreign magic bytes)");
      }
    }
    in.pos = MAGIC.length;
    int version = in.u16("the format version");
    if (version != MonitorSnapshot.FORMAT_VERSION) {
      throw new SnapshotException(MAGIC.length, "format version " + version + " is not "
          + "supported: this reader accepts exactly version " + MonitorSnapshot.FORMAT_VERSION);
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
    int crcAt = in.pos;
    int stored = in.u32("the checksum");
    if (in.pos != data.length) {
      throw new SnapshotException(in.pos, (data.length - in.pos) + " bytes after the checksum");
    }
    if (!checksumMatches(data, crcAt)) {
      throw new SnapshotException(crcAt, "checksum mismatch (the file is corrupt): stored "
          + Integer.toHexString(stored));
    }
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

  private static final class In {
    final byte[] data;
    int pos;
    /** Whether reading stopped because the input ended (truncation, not corruption). */
    boolean ranOut;

    In(byte[] data) {
      this.data = data;
    }

    private void need(int n, String what) {
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
      int len = count(what, 1);
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
