package io.dataflow.core.snapshot;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Format version 2 of a {@link MonitorSnapshot} (docs/snapshots.md has the layout table): the
 * content of version 1, compact. Hashes (definition key, fingerprints) are written as their 16
 * bytes, numbers as varints, the usual roles, types and operator kinds as small codes, small
 * integers and booleans in the value's tag byte. Whatever does not have a code (a key or
 * fingerprint that is not 32 lowercase hex digits, an unknown kind) is written as a string, so
 * every snapshot can be written.
 *
 * <p>The format has one encoding per snapshot: the reader refuses the longer of two encodings
 * of the same content (a varint not in its shortest form, a string where a code exists, an
 * {@code Int} that fits the tag byte), so what reads writes back as the same bytes.
 */
final class SnapshotCodecV2 {
  static final int VERSION = 2;

  /**
   * The operator kinds with a code ({@code index + 1}; 0 is a kind written as a string): the
   * evaluator's state-bearing node classes and the walker's own kinds. Frozen: format version
   * 5's packed operator heads hold exactly these 34 codes (SnapshotCodecV3.PACKED_KINDS), so a
   * new code is a new format version; a kind not listed is written as its name.
   */
  static final List<String> KINDS = List.of("Apply", "Arithmetic", "Body", "BoolLogic",
      "CallSite", "Cell", "Concat", "Const", "Default", "Delay", "DynamicNode", "Equality",
      "HigherOrder", "HistoryRead", "If", "Init", "Instance", "IntArith", "IsDefined", "Lambda",
      "LambdaNode", "Latch", "Lift", "Logical", "Neg", "Not", "NumCompare", "Order", "OuterRead",
      "Ring", "Slot", "Strict", "Update", "When");
  private static final Map<String, Integer> KIND_CODES = new HashMap<>();

  static {
    for (int i = 0; i < KINDS.size(); i++) {
      KIND_CODES.put(KINDS.get(i), i + 1);
    }
  }

  /** Roles with a code (index); code 3 is a role written as a string. */
  private static final List<String> ROLES = List.of("input", "output", "aux");
  /** Declared types with a code (index; 0 is none); code 7 is a type written as a string. */
  private static final List<String> TYPES = List.of("", "Int", "Float", "Bool", "Str", "Unit",
      "Any");
  static final int ROLE_STRING = 3;
  static final int TYPE_STRING = 7;

  // The tag byte of a value.
  static final int T_NOVAL = 0;
  static final int T_DEFERRED = 1;
  static final int T_UNIT = 2;
  static final int T_FALSE = 3;
  static final int T_TRUE = 4;
  static final int T_INT = 5;
  static final int T_FLOAT = 6;
  static final int T_STR = 7;
  static final int T_LIST = 8;
  static final int T_MAP = 9;
  /** Tags from here to 0xFF are the Ints {@code tag - SMALL_ZERO}: -32 to 159. */
  static final int T_SMALL = 0x40;
  static final int SMALL_ZERO = 0x60;
  static final long SMALL_MIN = T_SMALL - SMALL_ZERO;
  static final long SMALL_MAX = 0xFF - SMALL_ZERO;

  /** The Ints of the tag byte, shared by every snapshot read (values are immutable). */
  static final Value[] SMALL_INTS = new Value[0x100 - T_SMALL];

  static {
    for (int i = 0; i < SMALL_INTS.length; i++) {
      SMALL_INTS[i] = Value.of((long) (i + T_SMALL - SMALL_ZERO));
    }
  }

  // The flags byte of the header.
  private static final int F_FAILURE = 1;
  private static final int F_KEY_STRING = 2;
  // The descriptor byte of a stream: role (2 bits), type (3 bits), fingerprint as a string.
  private static final int D_FINGERPRINT_STRING = 0x20;

  private SnapshotCodecV2() {}

  // ---- writing ----

  static byte[] encode(MonitorSnapshot s) {
    SnapshotCodec.Out out = new SnapshotCodec.Out(estimate(s));
    out.raw(SnapshotCodec.MAGIC);
    out.u16(VERSION);
    byte[] key = hash(s.definitionKey());
    Failure f = s.failure();
    out.u8((f == null ? 0 : F_FAILURE) | (key == null ? F_KEY_STRING : 0));
    out.vstr(s.programName());
    if (key == null) {
      out.vstr(s.definitionKey());
    } else {
      out.raw(key);
    }
    out.uvarint(s.nextTick());
    out.svarint(s.revision().root());
    out.svarint(s.revision().properties());
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
    out.uvarint(s.streams().size());
    for (StreamState st : s.streams()) {
      out.vstr(st.name());
      int role = roleCode(st.role());
      int type = typeCode(st.declaredType());
      byte[] fp = hash(st.fingerprint());
      out.u8(role | type << 2 | (fp == null ? D_FINGERPRINT_STRING : 0));
      if (role == ROLE_STRING) {
        out.vstr(st.role());
      }
      if (type == TYPE_STRING) {
        out.vstr(st.declaredType());
      }
      if (fp == null) {
        out.vstr(st.fingerprint());
      } else {
        out.raw(fp);
      }
      value(out, st.current());
      value(out, st.lastPresent());
      out.uvarint(st.historyDepth());
      values(out, st.history());
      out.uvarint(st.operators().size());
      for (OperatorState op : st.operators()) {
        int code = kindCode(op.kind());
        if (code == 0) {
          out.u8(0);
          out.vstr(op.kind());
        } else {
          out.uvarint(code);
        }
        values(out, op.values());
      }
    }
    return out.finish();
  }

  /** A role's code: its index in the role table, or {@link #ROLE_STRING}. */
  static int roleCode(String role) {
    int code = ROLES.indexOf(role);
    return code < 0 ? ROLE_STRING : code;
  }

  /** A declared type's code: 0 for none, its index in the type table, or TYPE_STRING. */
  static int typeCode(String declaredType) {
    int code = TYPES.indexOf(declaredType == null ? "" : declaredType);
    if (code < 0 || (code == 0 && declaredType != null)) {
      return TYPE_STRING; // "" as a declared type is not "none"
    }
    return code;
  }

  /** An operator kind's code (1 to the table's size), or 0 for a kind written as a string. */
  static int kindCode(String kind) {
    Integer code = KIND_CODES.get(kind);
    return code == null ? 0 : code;
  }

  /** A size that holds the usual snapshot, so the buffer rarely grows. */
  private static int estimate(MonitorSnapshot s) {
    int n = 64 + s.programName().length();
    for (StreamState st : s.streams()) {
      n += 32 + st.name().length() + 3 * st.history().size();
      for (OperatorState op : st.operators()) {
        n += 2 + 3 * op.values().size();
      }
    }
    return n;
  }

  private static void values(SnapshotCodec.Out out, List<Value> vs) {
    out.uvarint(vs.size());
    for (int i = 0, n = vs.size(); i < n; i++) {
      value(out, vs.get(i));
    }
  }

  private static void value(SnapshotCodec.Out out, Value v) {
    switch (v.kind()) {
      case Kind.NOVAL -> out.u8(T_NOVAL);
      case Kind.DEFERRED -> out.u8(T_DEFERRED);
      case Kind.UNIT -> out.u8(T_UNIT);
      case Kind.BOOL -> out.u8(v.asBoolean() ? T_TRUE : T_FALSE);
      case Kind.INT -> {
        long x = v.asLong();
        if (x >= SMALL_MIN && x <= SMALL_MAX) {
          out.u8((int) (x + SMALL_ZERO));
        } else {
          out.u8(T_INT);
          out.svarint(x);
        }
      }
      case Kind.FLOAT -> {
        out.u8(T_FLOAT);
        out.i64(Double.doubleToRawLongBits(v.asDouble()));
      }
      case Kind.STR -> {
        out.u8(T_STR);
        out.vstr(v.asString());
      }
      case Kind.LIST -> {
        out.u8(T_LIST);
        values(out, v.asList());
      }
      case Kind.MAP -> {
        out.u8(T_MAP);
        out.uvarint(v.asMap().size());
        for (var e : v.asMap().entrySet()) {
          out.vstr(e.getKey());
          value(out, e.getValue());
        }
      }
      default -> throw new IllegalArgumentException("a snapshot cannot hold " + v);
    }
  }

  /** The 16 bytes of a hash written as 32 lowercase hex digits, or null for other text. */
  static byte[] hash(String text) {
    if (text.length() != 32) {
      return null;
    }
    byte[] out = new byte[16];
    for (int i = 0; i < 16; i++) {
      int hi = hexDigit(text.charAt(2 * i));
      int lo = hexDigit(text.charAt(2 * i + 1));
      if (hi < 0 || lo < 0) {
        return null;
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }

  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private static String hex(SnapshotCodec.In in, String what) {
    in.need(16, what);
    char[] c = new char[32];
    for (int i = 0; i < 16; i++) {
      int b = in.data[in.pos + i] & 0xFF;
      c[2 * i] = HEX[b >>> 4];
      c[2 * i + 1] = HEX[b & 0xF];
    }
    in.pos += 16;
    return new String(c);
  }

  // ---- reading ----

  /** The content after magic and version; {@code in} stands after the version. */
  static MonitorSnapshot decode(SnapshotCodec.In in) {
    int flagsAt = in.pos;
    int flags = in.u8("the header flags");
    if ((flags & ~(F_FAILURE | F_KEY_STRING)) != 0) {
      throw new SnapshotException(flagsAt, "unknown header flags " + Integer.toHexString(flags));
    }
    String program = in.vstr("the program name");
    String key = (flags & F_KEY_STRING) != 0
        ? notAHash(in, in.vstr("the definition key"), "the definition key")
        : hex(in, "the definition key");
    long tickAt = in.pos;
    long nextTick = in.uvarint("the next tick");
    if (nextTick < 0) {
      throw new SnapshotException(tickAt, "negative next tick " + nextTick);
    }
    MonitorRevision revision = new MonitorRevision(in.svarint("the revision"),
        in.svarint("the revision"));
    Failure failure = null;
    if ((flags & F_FAILURE) != 0) {
      long tick = in.svarint("the failure's tick");
      String stream = in.flag("the failure's stream flag") == 1 ? in.vstr("the failure's stream")
          : null;
      failure = new Failure(tick, stream, in.vstr("the failure's reason"));
    }
    int n = in.vcount("the stream count", 8);
    StreamState[] streams = new StreamState[n];
    for (int i = 0; i < n; i++) {
      streams[i] = stream(in);
    }
    in.checksum();
    return new MonitorSnapshot(VERSION, program, key, nextTick, revision, failure,
        OwnedList.of(streams));
  }

  private static StreamState stream(SnapshotCodec.In in) {
    int at = in.pos;
    String name = in.vstr("a stream name");
    int descAt = in.pos;
    int desc = in.u8("a stream descriptor");
    if ((desc & 0xC0) != 0) {
      throw new SnapshotException(descAt, "unknown stream descriptor bits "
          + Integer.toHexString(desc));
    }
    String role = role(in, desc & 3);
    String declaredType = type(in, descAt, (desc >>> 2) & 7);
    String fingerprint = (desc & D_FINGERPRINT_STRING) != 0
        ? notAHash(in, in.vstr("a stream fingerprint"), "a stream fingerprint")
        : hex(in, "a stream fingerprint");
    Value current = value(in, 0);
    Value lastPresent = value(in, 0);
    long depthAt = in.pos;
    long depth = in.uvarint("a history depth");
    if (depth < 0 || depth > Integer.MAX_VALUE) {
      throw new SnapshotException(depthAt, "history depth " + Long.toUnsignedString(depth)
          + " out of range");
    }
    List<Value> history = values(in, "a history length");
    if (history.size() > depth) {
      throw new SnapshotException(depthAt, "stream '" + name + "' holds " + history.size()
          + " history samples for a depth of " + depth);
    }
    int ops = in.vcount("an operator count", 2);
    OperatorState[] operators = new OperatorState[ops];
    for (int j = 0; j < ops; j++) {
      String kind = kind(in);
      operators[j] = new OperatorState(kind, values(in, "an operator's value count"));
    }
    if (!lastPresent.isPresent() && lastPresent != Value.NOVAL) {
      throw new SnapshotException(at, "stream '" + name + "': last present value is "
          + lastPresent);
    }
    return new StreamState(name, role, declaredType, fingerprint, current, lastPresent,
        (int) depth, history, OwnedList.of(operators));
  }

  /** A stream's role: {@code code}'s, or a string that follows (one without a code). */
  static String role(SnapshotCodec.In in, int code) {
    if (code != ROLE_STRING) {
      return ROLES.get(code);
    }
    int roleAt = in.pos;
    String role = in.vstr("a stream role");
    if (ROLES.contains(role)) {
      throw new SnapshotException(roleAt, "role '" + role + "' written as a string (it has "
          + "a code)");
    }
    return role;
  }

  /** A declared type: {@code code}'s, or a string that follows (one without a code). */
  static String type(SnapshotCodec.In in, int descAt, int code) {
    if (code == TYPE_STRING) {
      int typeAt = in.pos;
      String declaredType = in.vstr("a declared type");
      if (TYPES.indexOf(declaredType) > 0) {
        throw new SnapshotException(typeAt, "type '" + declaredType + "' written as a string "
            + "(it has a code)");
      }
      return declaredType;
    }
    if (code >= TYPES.size()) {
      throw new SnapshotException(descAt, "unknown type code " + code);
    }
    return code == 0 ? null : TYPES.get(code);
  }

  /** An operator kind: a code of the kind table, or 0 and a string (a kind without a code). */
  static String kind(SnapshotCodec.In in) {
    int kindAt = in.pos;
    long code = in.uvarint("an operator kind");
    if (code == 0) {
      String kind = in.vstr("an operator kind");
      if (KIND_CODES.containsKey(kind)) {
        throw new SnapshotException(kindAt, "operator kind '" + kind + "' written as a "
            + "string (it has a code)");
      }
      return kind;
    }
    if (code < 0 || code > KINDS.size()) {
      throw new SnapshotException(kindAt, "unknown operator kind code "
          + Long.toUnsignedString(code));
    }
    return KINDS.get((int) code - 1);
  }

  /** A hash written as a string must not be one that has the 16-byte form. */
  private static String notAHash(SnapshotCodec.In in, String s, String what) {
    if (hash(s) != null) {
      throw new SnapshotException(in.pos - s.length(), what + " written as a string (it has "
          + "the 16-byte form)");
    }
    return s;
  }

  private static List<Value> values(SnapshotCodec.In in, String what) {
    int n = in.vcount(what, 1);
    Value[] out = new Value[n];
    for (int i = 0; i < n; i++) {
      out[i] = value(in, 0);
    }
    return OwnedList.of(out); // the records keep it without a copy
  }

  private static Value value(SnapshotCodec.In in, int depth) {
    int at = in.pos;
    if (depth > SnapshotCodec.MAX_NESTING) {
      throw new SnapshotException(at, "values nest deeper than " + SnapshotCodec.MAX_NESTING);
    }
    int tag = in.u8("a value's tag");
    if (tag >= T_SMALL) {
      return SMALL_INTS[tag - T_SMALL];
    }
    switch (tag) {
      case T_NOVAL:
        return Value.NOVAL;
      case T_DEFERRED:
        return Value.DEFERRED;
      case T_UNIT:
        return Value.UNIT;
      case T_FALSE:
        return Value.FALSE;
      case T_TRUE:
        return Value.TRUE;
      case T_INT: {
        long x = in.svarint("an Int");
        if (x >= SMALL_MIN && x <= SMALL_MAX) {
          throw new SnapshotException(at, "Int " + x + " written long (it fits the tag byte)");
        }
        return Value.of(x);
      }
      case T_FLOAT:
        return Value.of(Double.longBitsToDouble(in.i64("a Float")));
      case T_STR:
        return Value.of(in.vstr("a Str"));
      case T_LIST:
        return list(in, depth, SnapshotCodecV2::value);
      case T_MAP:
        return map(in, depth, SnapshotCodecV2::value);
      default:
        throw new SnapshotException(at, "unknown value tag " + tag);
    }
  }

  /** How a version reads one value at a nesting depth (version 3 adds its Int references). */
  interface ValueReader {
    Value read(SnapshotCodec.In in, int depth);
  }

  /** A List's length and elements (versions 2 and 3 write them alike). */
  static Value list(SnapshotCodec.In in, int depth, ValueReader values) {
    int n = in.vcount("a List's length", 1);
    List<Value> elements = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      elements.add(element(in, depth, values));
    }
    return new Value.List(elements);
  }

  /** A Map's size and entries, keys in code-point order (versions 2 and 3 write them alike). */
  static Value map(SnapshotCodec.In in, int depth, ValueReader values) {
    int n = in.vcount("a Map's size", 2);
    TreeMap<String, Value> entries = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
    String previous = null;
    for (int i = 0; i < n; i++) {
      int keyAt = in.pos;
      String k = in.vstr("a Map key");
      if (previous != null && ValueFormat.CODE_POINT_ORDER.compare(previous, k) >= 0) {
        throw new SnapshotException(keyAt, "Map keys out of order or repeated: '"
            + previous + "' then '" + k + "'");
      }
      previous = k;
      entries.put(k, element(in, depth, values));
    }
    return new Value.Map(entries);
  }

  private static Value element(SnapshotCodec.In in, int depth, ValueReader values) {
    int at = in.pos;
    Value v = values.read(in, depth + 1);
    if (!v.isPresent()) {
      throw new SnapshotException(at, "a collection cannot hold " + v);
    }
    return v;
  }
}
