package io.dataflow.core;

/**
 * The primitive kinds of values, as stored in the tag array of a {@link Row}.
 *
 * <p>Rows and the monitor keep a value as a tag byte, 64 bits of payload (an Int, the raw bits
 * of a Float, or 0/1 for a Bool) and a reference (a {@code String}, {@link Value.List} or
 * {@link Value.Map}), so scalars never need a boxed object. The two absence markers have the
 * lowest tags: {@code tag > DEFERRED} means "present".
 */
public final class Kind {
  /** No event this tick. */
  public static final byte NOVAL = 0;
  /** Cannot be computed yet. */
  public static final byte DEFERRED = 1;
  /** Unit; no payload. */
  public static final byte UNIT = 2;
  /** Bool; payload 0 or 1. */
  public static final byte BOOL = 3;
  /** Int; payload the long. */
  public static final byte INT = 4;
  /** Float; payload the raw long bits of the double. */
  public static final byte FLOAT = 5;
  /** Str; reference a {@code String}. */
  public static final byte STR = 6;
  /** List; reference a {@link Value.List}. */
  public static final byte LIST = 7;
  /** Map; reference a {@link Value.Map}. */
  public static final byte MAP = 8;
  /** A function value (monitor-internal; never crosses a row). */
  public static final byte FUNCTION = 9;

  private Kind() {}

  /** The language's name for a kind. */
  public static String name(byte kind) {
    switch (kind) {
      case NOVAL:
        return "NoVal";
      case DEFERRED:
        return "Deferred";
      case UNIT:
        return "Unit";
      case BOOL:
        return "Bool";
      case INT:
        return "Int";
      case FLOAT:
        return "Float";
      case STR:
        return "Str";
      case LIST:
        return "List";
      case MAP:
        return "Map";
      case FUNCTION:
        return "Function";
      default:
        throw new IllegalArgumentException("unknown kind " + kind);
    }
  }

  /** Boxes a primitive (tag, bits, ref) triple into a {@link Value}. */
  public static Value box(byte tag, long bits, Object ref) {
    switch (tag) {
      case NOVAL:
        return Value.NOVAL;
      case DEFERRED:
        return Value.DEFERRED;
      case UNIT:
        return Value.UNIT;
      case BOOL:
        return Value.of(bits != 0);
      case INT:
        return new Value.Int(bits);
      case FLOAT:
        return new Value.Float(Double.longBitsToDouble(bits));
      case STR:
        return new Value.Str((String) ref);
      case LIST:
      case MAP:
        return (Value) ref;
      default:
        throw new IllegalArgumentException("cannot box kind " + name(tag));
    }
  }

  /** The payload bits of a value (0 for kinds without a primitive payload). */
  public static long bitsOf(Value v) {
    if (v instanceof Value.Int i) {
      return i.value();
    } else if (v instanceof Value.Float f) {
      return Double.doubleToRawLongBits(f.value());
    } else if (v instanceof Value.Bool b) {
      return b.value() ? 1 : 0;
    }
    return 0;
  }

  /** The reference payload of a value (null for scalar kinds). */
  public static Object refOf(Value v) {
    if (v instanceof Value.Str s) {
      return s.value();
    } else if (v instanceof Value.List || v instanceof Value.Map) {
      return v;
    }
    return null;
  }
}
