package io.dataflow.io.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON encoding of values, used by JSON Lines input and output (see docs/io.md):
 *
 * <table>
 *   <caption>Value encodings</caption>
 *   <tr><th>value</th><th>JSON</th></tr>
 *   <tr><td>Int</td><td>an integer: {@code 3}</td></tr>
 *   <tr><td>Float</td><td>a number with a fraction or exponent: {@code 1.0}, {@code 2.5e-7};
 *       non-finite: {@code {"$float": "NaN"}}, {@code {"$float": "inf"}},
 *       {@code {"$float": "-inf"}}</td></tr>
 *   <tr><td>Str</td><td>a string</td></tr>
 *   <tr><td>Bool</td><td>{@code true} / {@code false}</td></tr>
 *   <tr><td>Unit</td><td>{@code null}</td></tr>
 *   <tr><td>List</td><td>an array</td></tr>
 *   <tr><td>Map</td><td>an object with keys sorted by code point; a map with a key starting
 *       with {@code $} is wrapped: {@code {"$map": {...}}}</td></tr>
 *   <tr><td>Deferred</td><td>{@code {"$deferred": true}}</td></tr>
 *   <tr><td>NoVal</td><td>the key is absent</td></tr>
 * </table>
 */
public final class JsonValues {
  private JsonValues() {}

  /** Writes one value (not NoVal). */
  public static void write(JsonGenerator g, Value v) throws IOException {
    switch (v.kind()) {
      case Kind.INT:
        g.writeNumber(((Value.Int) v).value());
        break;
      case Kind.FLOAT: {
        double d = ((Value.Float) v).value();
        if (Double.isFinite(d)) {
          g.writeNumber(ValueFormat.formatFloat(d));
        } else {
          g.writeStartObject();
          g.writeStringField("$float", ValueFormat.formatFloat(d));
          g.writeEndObject();
        }
        break;
      }
      case Kind.STR:
        g.writeString(((Value.Str) v).value());
        break;
      case Kind.BOOL:
        g.writeBoolean(((Value.Bool) v).value());
        break;
      case Kind.UNIT:
        g.writeNull();
        break;
      case Kind.LIST:
        g.writeStartArray();
        for (Value e : ((Value.List) v).elements()) {
          write(g, e);
        }
        g.writeEndArray();
        break;
      case Kind.MAP: {
        Map<String, Value> entries = ((Value.Map) v).entries();
        boolean wrap = entries.keySet().stream().anyMatch(k -> k.startsWith("$"));
        g.writeStartObject();
        if (wrap) {
          g.writeFieldName("$map");
          g.writeStartObject();
        }
        for (Map.Entry<String, Value> e : entries.entrySet()) {
          g.writeFieldName(e.getKey());
          write(g, e.getValue());
        }
        if (wrap) {
          g.writeEndObject();
        }
        g.writeEndObject();
        break;
      }
      case Kind.DEFERRED:
        g.writeStartObject();
        g.writeBooleanField("$deferred", true);
        g.writeEndObject();
        break;
      default:
        throw new IllegalArgumentException("cannot encode " + v);
    }
  }

  /**
   * The values of a JSON Lines tick: every field of {@code node} but {@code skip} (a keyed
   * pipeline's key field; null for none), in order.
   *
   * @throws io.dataflow.io.TraceException at {@code at} naming the field with a bad value
   */
  public static Map<String, Value> tickValues(JsonNode node, String skip,
      io.dataflow.core.SourceLocation at) {
    Map<String, Value> values = new java.util.LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().equals(skip)) {
        continue;
      }
      try {
        values.put(e.getKey(), read(e.getValue()));
      } catch (IllegalArgumentException ex) {
        throw new io.dataflow.io.TraceException(at, "bad value for '" + e.getKey() + "': "
            + ex.getMessage());
      }
    }
    return values;
  }

  /**
   * Decodes one value.
   *
   * @throws IllegalArgumentException for JSON that encodes no value (say, a huge integer)
   */
  public static Value read(JsonNode n) {
    JsonNodeType t = n.getNodeType();
    switch (t) {
      case NUMBER:
        if (n.isIntegralNumber()) {
          BigInteger big = n.bigIntegerValue();
          if (big.bitLength() > 63) {
            throw new IllegalArgumentException("integer out of range: " + big);
          }
          return Value.of(big.longValue());
        }
        return Value.of(n.doubleValue());
      case STRING:
        return Value.of(n.textValue());
      case BOOLEAN:
        return Value.of(n.booleanValue());
      case NULL:
        return Value.UNIT;
      case ARRAY: {
        List<Value> items = new ArrayList<>(n.size());
        for (JsonNode e : n) {
          Value v = read(e);
          if (!v.isPresent()) {
            // As for maps: absence markers never appear inside a collection.
            throw new IllegalArgumentException("a list cannot hold " + v);
          }
          items.add(v);
        }
        return new Value.List(items);
      }
      case OBJECT:
        return object(n);
      default:
        throw new IllegalArgumentException("cannot decode " + t);
    }
  }

  private static Value object(JsonNode n) {
    if (n.size() == 1) {
      String key = n.fieldNames().next();
      JsonNode inner = n.get(key);
      switch (key) {
        case "$deferred":
          return Value.DEFERRED;
        case "$float":
          return Value.of(parseFloat(inner.asText()));
        case "$map":
          if (!inner.isObject()) {
            throw new IllegalArgumentException("$map needs an object");
          }
          return plainMap(inner);
        default:
          if (key.startsWith("$")) {
            throw new IllegalArgumentException("unknown tag " + key);
          }
      }
    }
    return plainMap(n);
  }

  private static Value plainMap(JsonNode n) {
    TreeMap<String, Value> entries = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
    Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      Value v = read(e.getValue());
      if (!v.isPresent()) {
        throw new IllegalArgumentException("a map cannot hold " + v);
      }
      entries.put(e.getKey(), v);
    }
    return new Value.Map(entries);
  }

  private static double parseFloat(String s) {
    switch (s) {
      case "NaN":
        return Double.NaN;
      case "inf":
        return Double.POSITIVE_INFINITY;
      case "-inf":
        return Double.NEGATIVE_INFINITY;
      default:
        return Double.parseDouble(s);
    }
  }
}
