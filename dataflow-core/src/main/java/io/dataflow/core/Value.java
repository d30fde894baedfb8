package io.dataflow.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A runtime value of the stream language: {@code Int}, {@code Float}, {@code Str}, {@code Bool},
 * {@code Unit}, {@code List}, {@code Map}, and the two absence markers {@link NoVal} and
 * {@link Deferred}.
 *
 * <p>Boxed values exist at the edge of the API (building inputs, reading outputs); the monitor
 * keeps scalars in primitive slots and allocates nothing per tick. {@code toString()} renders
 * the text output format ({@code Int(3)}, {@code Float(0.5)}, {@code Str("a")}, ...).
 *
 * <p>Java {@code equals} is value equality suitable for tests and collections (two NaN floats
 * are equal); the language's {@code ==} is IEEE on floats and lives in the monitor.
 *
 * <p>Thread-safety: every value is immutable.
 */
public sealed interface Value
    permits Value.Int, Value.Float, Value.Str, Value.Bool, Value.Unit, Value.List, Value.Map,
        Value.NoVal, Value.Deferred {

  /** The Unit value {@code ()}. */
  Value UNIT = Unit.INSTANCE;
  /** No event for this stream on this tick. */
  Value NOVAL = NoVal.INSTANCE;
  /** A value that cannot be computed yet. */
  Value DEFERRED = Deferred.INSTANCE;
  /** {@code Bool(true)}. */
  Value TRUE = new Bool(true);
  /** {@code Bool(false)}. */
  Value FALSE = new Bool(false);

  /** The primitive kind of this value, one of the {@link Kind} constants. */
  byte kind();

  /** True unless this is {@link NoVal} or {@link Deferred}. */
  default boolean isPresent() {
    return kind() > Kind.DEFERRED;
  }

  /** The name of this value's type as the language spells it ({@code Int}, {@code List}, ...). */
  default String typeName() {
    return Kind.name(kind());
  }

  /**
   * This {@code Int}'s value.
   *
   * @throws ValueTypeException when this is not an {@code Int}
   */
  default long asLong() {
    if (this instanceof Int i) {
      return i.value();
    }
    throw ValueTypeException.expected("an Int", this);
  }

  /**
   * This {@code Float}'s value (an {@code Int} is not widened: the language keeps the two apart).
   *
   * @throws ValueTypeException when this is not a {@code Float}
   */
  default double asDouble() {
    if (this instanceof Float f) {
      return f.value();
    }
    throw ValueTypeException.expected("a Float", this);
  }

  /**
   * This {@code Str}'s text.
   *
   * @throws ValueTypeException when this is not a {@code Str}
   */
  default String asString() {
    if (this instanceof Str s) {
      return s.value();
    }
    throw ValueTypeException.expected("a Str", this);
  }

  /**
   * This {@code Bool}'s value.
   *
   * @throws ValueTypeException when this is not a {@code Bool}
   */
  default boolean asBoolean() {
    if (this instanceof Bool b) {
      return b.value();
    }
    throw ValueTypeException.expected("a Bool", this);
  }

  /**
   * This {@code List}'s elements (immutable).
   *
   * @throws ValueTypeException when this is not a {@code List}
   */
  default java.util.List<Value> asList() {
    if (this instanceof List l) {
      return l.elements();
    }
    throw ValueTypeException.expected("a List", this);
  }

  /**
   * This {@code Map}'s entries, sorted by code point (immutable).
   *
   * @throws ValueTypeException when this is not a {@code Map}
   */
  default SortedMap<String, Value> asMap() {
    if (this instanceof Map m) {
      return m.entries();
    }
    throw ValueTypeException.expected("a Map", this);
  }

  /** An {@code Int}. */
  static Value of(long value) {
    return new Int(value);
  }

  /** A {@code Float}. */
  static Value of(double value) {
    return new Float(value);
  }

  /** A {@code Str}. */
  static Value of(String value) {
    return new Str(value);
  }

  /** A {@code Bool}. */
  static Value of(boolean value) {
    return value ? TRUE : FALSE;
  }

  /** A {@code List} of the given elements. */
  static Value list(Value... elements) {
    return new List(java.util.List.of(elements));
  }

  /** A {@code Map} from alternating keys and values: {@code map("a", Value.of(1))}. */
  static Value map(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("map needs key/value pairs");
    }
    TreeMap<String, Value> entries = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.put((String) keysAndValues[i], (Value) keysAndValues[i + 1]);
    }
    return new Map(entries);
  }

  /** A 64-bit signed integer. */
  record Int(long value) implements Value {
    @Override
    public byte kind() {
      return Kind.INT;
    }

    @Override
    public String toString() {
      return "Int(" + value + ")";
    }
  }

  /** An IEEE double. */
  record Float(double value) implements Value {
    @Override
    public byte kind() {
      return Kind.FLOAT;
    }

    @Override
    public String toString() {
      return "Float(" + ValueFormat.formatFloat(value) + ")";
    }
  }

  /** A string. */
  record Str(String value) implements Value {
    /** Creates a string value; {@code value} must not be null. */
    public Str {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public byte kind() {
      return Kind.STR;
    }

    @Override
    public String toString() {
      return "Str(" + ValueFormat.quote(value) + ")";
    }
  }

  /** A boolean. */
  record Bool(boolean value) implements Value {
    @Override
    public byte kind() {
      return Kind.BOOL;
    }

    @Override
    public String toString() {
      return "Bool(" + value + ")";
    }
  }

  /** The unit value {@code ()}. */
  enum Unit implements Value {
    /** The only instance. */
    INSTANCE;

    @Override
    public byte kind() {
      return Kind.UNIT;
    }

    @Override
    public String toString() {
      return "Unit";
    }
  }

  /**
   * An immutable list of present values (absence markers never appear inside a collection: a
   * constructor with an absent operand is itself absent).
   */
  record List(java.util.List<Value> elements) implements Value {
    /** Creates a list value; the elements are copied. */
    public List {
      elements = java.util.List.copyOf(elements);
    }

    /** Appends one element, returning a new list. */
    public List append(Value v) {
      ArrayList<Value> copy = new ArrayList<>(elements.size() + 1);
      copy.addAll(elements);
      copy.add(v);
      return new List(copy);
    }

    @Override
    public byte kind() {
      return Kind.LIST;
    }

    @Override
    public String toString() {
      return ValueFormat.format(this);
    }
  }

  /** An immutable map from string keys, sorted by code point, to present values. */
  record Map(SortedMap<String, Value> entries) implements Value {
    /** Creates a map value; the entries are copied and sorted by code point. */
    public Map {
      TreeMap<String, Value> copy = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
      copy.putAll(entries);
      for (var e : copy.entrySet()) {
        Objects.requireNonNull(e.getKey(), "key");
        Objects.requireNonNull(e.getValue(), "value");
      }
      entries = Collections.unmodifiableSortedMap(copy);
    }

    @Override
    public byte kind() {
      return Kind.MAP;
    }

    @Override
    public String toString() {
      return ValueFormat.format(this);
    }
  }

  /** No event for this stream on this tick. */
  enum NoVal implements Value {
    /** The only instance. */
    INSTANCE;

    @Override
    public byte kind() {
      return Kind.NOVAL;
    }

    @Override
    public String toString() {
      return "NoVal";
    }
  }

  /** A value that cannot be computed yet; a real value that flows through operators. */
  enum Deferred implements Value {
    /** The only instance. */
    INSTANCE;

    @Override
    public byte kind() {
      return Kind.DEFERRED;
    }

    @Override
    public String toString() {
      return "Deferred";
    }
  }
}
