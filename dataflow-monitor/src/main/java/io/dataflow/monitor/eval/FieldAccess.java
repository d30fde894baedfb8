package io.dataflow.monitor.eval;

import java.lang.reflect.Field;

/**
 * One field the snapshot walk ({@link StateWalker}) reads or writes: by its offset with
 * {@code sun.misc.Unsafe} when the JVM offers it and the field allows it, else by reflection
 * ({@link Field#get}/{@link Field#set}), with the same values either way (docs/decisions.md,
 * "The snapshot walk reads and writes fields by their offsets").
 *
 * <p>Made once per field of a class plan or a walk plan, so the offset is found once. A field
 * of a hidden class or a record, whose offset {@code Unsafe} refuses, is read and written
 * reflectively on its own; {@value #REFLECTIVE_PROPERTY} (diagnostics, tests) makes every
 * field reflective. The choice is a {@code static final}, so the JIT folds it.
 *
 * <p>{@code Unsafe} checks neither the receiver's class nor the value's type. The walk calls
 * an accessor only on an object whose class is the one the accessor's field was found on or a
 * subclass of it (a class plan's fields on an object of the plan's class, a walk plan's
 * {@code via} on an entry whose class the replay has checked), stores only primitives, and the
 * reference reads are cast by the caller: no check that could fail is left out.
 */
final class FieldAccess {
  /** Diagnostics and tests: every field read and written by reflection. */
  static final String REFLECTIVE_PROPERTY = "dataflow.snapshot.reflective";

  private static final sun.misc.Unsafe U = Unsafes.UNSAFE;
  /** Whether fields with an offset are read and written through {@code Unsafe}. */
  static final boolean UNSAFE = U != null && !Boolean.getBoolean(REFLECTIVE_PROPERTY);

  private static final byte REF = 0;
  private static final byte BOOLEAN = 1;
  private static final byte LONG = 2;
  private static final byte INT = 3;
  private static final byte SHORT = 4;
  private static final byte BYTE = 5;
  private static final byte CHAR = 6;
  private static final byte DOUBLE = 7;
  private static final byte FLOAT = 8;

  final Field field;
  /** The field's offset, or -1: read and written by reflection. */
  final long offset;
  private final byte type;

  private FieldAccess(Field field, long offset) {
    this.field = field;
    this.offset = offset;
    Class<?> t = field.getType();
    type = !t.isPrimitive() ? REF : t == boolean.class ? BOOLEAN : t == long.class ? LONG
        : t == int.class ? INT : t == short.class ? SHORT : t == byte.class ? BYTE
        : t == char.class ? CHAR : t == double.class ? DOUBLE : FLOAT;
  }

  /** The field's accessor: by its offset where {@link #UNSAFE} and the field allow. */
  static FieldAccess of(Field f) {
    return new FieldAccess(f, UNSAFE ? offsetOf(f) : -1);
  }

  /** The field's accessor by reflection alone (tests compare the two). */
  static FieldAccess reflective(Field f) {
    return new FieldAccess(f, -1);
  }

  static FieldAccess[] of(Field[] fields) {
    FieldAccess[] out = new FieldAccess[fields.length];
    for (int i = 0; i < fields.length; i++) {
      out[i] = of(fields[i]);
    }
    return out;
  }

  /** Whether this field is read and written by its offset. */
  boolean direct() {
    return UNSAFE && offset >= 0;
  }

  private static long offsetOf(Field f) {
    Class<?> c = f.getDeclaringClass();
    if (c.isHidden() || c.isRecord()) {
      return -1; // Unsafe refuses them
    }
    try {
      return U.objectFieldOffset(f);
    } catch (RuntimeException e) {
      return -1; // refused: reflection for this field
    }
  }

  private IllegalStateException failed(IllegalAccessException e) {
    return new IllegalStateException(e);
  }

  /** A reference field's value. */
  Object get(Object o) {
    if (UNSAFE && offset >= 0) {
      return U.getObject(o, offset);
    }
    try {
      return field.get(o);
    } catch (IllegalAccessException e) {
      throw failed(e);
    }
  }

  boolean getBoolean(Object o) {
    if (UNSAFE && offset >= 0) {
      return U.getBoolean(o, offset);
    }
    try {
      return field.getBoolean(o);
    } catch (IllegalAccessException e) {
      throw failed(e);
    }
  }

  /** An integral field's value widened as {@link Field#getLong} widens it. */
  long getLong(Object o) {
    if (UNSAFE && offset >= 0) {
      return switch (type) {
        case LONG -> U.getLong(o, offset);
        case INT -> U.getInt(o, offset);
        case SHORT -> U.getShort(o, offset);
        case BYTE -> U.getByte(o, offset);
        case CHAR -> U.getChar(o, offset);
        default -> throw new IllegalArgumentException(field + " is not integral");
      };
    }
    try {
      return field.getLong(o);
    } catch (IllegalAccessException e) {
      throw failed(e);
    }
  }

  double getDouble(Object o) {
    if (UNSAFE && offset >= 0 && type == DOUBLE) {
      return U.getDouble(o, offset);
    }
    try {
      return field.getDouble(o);
    } catch (IllegalAccessException e) {
      throw failed(e);
    }
  }

  float getFloat(Object o) {
    if (UNSAFE && offset >= 0 && type == FLOAT) {
      return U.getFloat(o, offset);
    }
    try {
      return field.getFloat(o);
    } catch (IllegalAccessException e) {
      throw failed(e);
    }
  }

  /**
   * Stores a primitive field's value as the snapshot's replay does: a boolean from
   * {@code bool}, an integral type from {@code bits} ({@code int} exactly, the narrower ones
   * cast), a {@code double} or {@code float} from its raw bits.
   *
   * @throws ArithmeticException when an {@code int} field's value does not fit
   */
  void setPrimitive(Object o, boolean bool, long bits) {
    if (UNSAFE && offset >= 0) {
      switch (type) {
        case BOOLEAN -> U.putBoolean(o, offset, bool);
        case LONG -> U.putLong(o, offset, bits);
        case INT -> U.putInt(o, offset, Math.toIntExact(bits));
        case SHORT -> U.putShort(o, offset, (short) bits);
        case BYTE -> U.putByte(o, offset, (byte) bits);
        case CHAR -> U.putChar(o, offset, (char) bits);
        case DOUBLE -> U.putDouble(o, offset, Double.longBitsToDouble(bits));
        case FLOAT -> U.putFloat(o, offset, java.lang.Float.intBitsToFloat((int) bits));
        default -> throw new IllegalArgumentException(field + " is not primitive");
      }
      return;
    }
    try {
      switch (type) {
        case BOOLEAN -> field.setBoolean(o, bool);
        case LONG -> field.setLong(o, bits);
        case INT -> field.setInt(o, Math.toIntExact(bits));
        case SHORT -> field.setShort(o, (short) bits);
        case BYTE -> field.setByte(o, (byte) bits);
        case CHAR -> field.setChar(o, (char) bits);
        case DOUBLE -> field.setDouble(o, Double.longBitsToDouble(bits));
        case FLOAT -> field.setFloat(o, java.lang.Float.intBitsToFloat((int) bits));
        default -> throw new IllegalArgumentException(field + " is not primitive");
      }
    } catch (IllegalAccessException e) {
      throw failed(e);
    }
  }

  /** Whether this field is a {@code boolean} (its value goes in {@code bool}). */
  boolean isBoolean() {
    return type == BOOLEAN;
  }

  @Override
  public String toString() {
    return field + (direct() ? " @" + offset : " (reflective)");
  }
}
