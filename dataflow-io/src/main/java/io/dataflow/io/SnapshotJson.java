package io.dataflow.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import io.dataflow.core.snapshot.Failure;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.OperatorState;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.core.snapshot.StreamState;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON rendering of a {@link MonitorSnapshot}, for people and diffs (docs/snapshots.md#json).
 * It loses nothing: {@code fromJson(toJson(s))} equals {@code s} and writes the same bytes.
 *
 * <p>Every value is an object with one field naming its kind, so that {@code Int} 1 and
 * {@code Float} 1.0, NoVal, Deferred and Unit stay apart: {@code {"Int": 3}},
 * {@code {"Float": 0.5}} ({@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"} as strings; a
 * NaN other than the canonical one as {@code {"FloatBits": "7ff8000000000001"}}),
 * {@code {"Str": "a"}}, {@code {"Bool": true}}, {@code {"Unit": null}},
 * {@code {"NoVal": null}}, {@code {"Deferred": null}}, {@code {"List": [...]}},
 * {@code {"Map": {"key": ...}}}.
 *
 * <p>Thread-safety: stateless.
 */
public final class SnapshotJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private SnapshotJson() {}

  /**
   * A runtime checkpoint as JSON: its sequence, the source positions, the starting definition
   * key, the specification in force and, under {@code snapshot}, {@link #toJson} of its
   * monitor's snapshot.
   */
  public static String checkpointToJson(io.dataflow.core.snapshot.RuntimeCheckpoint c) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeNumberField("checkpoint", c.sequence());
      g.writeObjectFieldStart("positions");
      for (Map.Entry<String, Long> e : new TreeMap<>(c.positions()).entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeStringField("startingDefinitionKey", c.baseKey());
      g.writeStringField("specificationName", c.specificationName());
      g.writeStringField("specification", c.specification());
      g.writeFieldName("snapshot");
      g.writeRawValue(toJson(c.snapshot()));
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /** The snapshot as pretty-printed JSON, fields in a fixed order. */
  public static String toJson(MonitorSnapshot s) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeNumberField("formatVersion", s.formatVersion());
      g.writeStringField("program", s.programName());
      g.writeStringField("definitionKey", s.definitionKey());
      g.writeNumberField("nextTick", s.nextTick());
      g.writeObjectFieldStart("revision");
      g.writeNumberField("root", s.revision().root());
      g.writeNumberField("properties", s.revision().properties());
      g.writeEndObject();
      g.writeFieldName("failure");
      if (s.failure() == null) {
        g.writeNull();
      } else {
        g.writeStartObject();
        g.writeNumberField("tick", s.failure().tick());
        g.writeStringField("stream", s.failure().stream());
        g.writeStringField("reason", s.failure().reason());
        g.writeEndObject();
      }
      g.writeArrayFieldStart("streams");
      for (StreamState st : s.streams()) {
        g.writeStartObject();
        g.writeStringField("name", st.name());
        g.writeStringField("role", st.role());
        g.writeStringField("declaredType", st.declaredType());
        g.writeStringField("fingerprint", st.fingerprint());
        g.writeFieldName("current");
        writeValue(g, st.current());
        g.writeFieldName("lastPresent");
        writeValue(g, st.lastPresent());
        g.writeNumberField("historyDepth", st.historyDepth());
        g.writeFieldName("history");
        writeValues(g, st.history());
        g.writeArrayFieldStart("operators");
        for (OperatorState op : st.operators()) {
          g.writeStartObject();
          g.writeStringField("kind", op.kind());
          g.writeFieldName("values");
          writeValues(g, op.values());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void writeValues(JsonGenerator g, List<Value> values) throws IOException {
    g.writeStartArray();
    for (Value v : values) {
      writeValue(g, v);
    }
    g.writeEndArray();
  }

  private static void writeValue(JsonGenerator g, Value v) throws IOException {
    g.writeStartObject();
    if (v instanceof Value.Int i) {
      g.writeNumberField("Int", i.value());
    } else if (v instanceof Value.Float f) {
      double d = f.value();
      long bits = Double.doubleToRawLongBits(d);
      if (Double.isNaN(d) && bits != Double.doubleToRawLongBits(Double.NaN)) {
        g.writeStringField("FloatBits", Long.toHexString(bits));
      } else if (Double.isNaN(d) || Double.isInfinite(d)) {
        g.writeStringField("Float", Double.toString(d));
      } else {
        g.writeNumberField("Float", d);
      }
    } else if (v instanceof Value.Str s) {
      g.writeStringField("Str", s.value());
    } else if (v instanceof Value.Bool b) {
      g.writeBooleanField("Bool", b.value());
    } else if (v instanceof Value.List l) {
      g.writeFieldName("List");
      writeValues(g, l.elements());
    } else if (v instanceof Value.Map m) {
      g.writeObjectFieldStart("Map");
      for (Map.Entry<String, Value> e : m.entries().entrySet()) {
        g.writeFieldName(e.getKey());
        writeValue(g, e.getValue());
      }
      g.writeEndObject();
    } else {
      g.writeNullField(v.toString()); // NoVal, Deferred, Unit: their names
    }
    g.writeEndObject();
  }

  /**
   * Reads the JSON rendering back.
   *
   * @throws SnapshotException when the text is not a snapshot's JSON rendering
   */
  public static MonitorSnapshot fromJson(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new SnapshotException("not JSON: " + e.getOriginalMessage());
    }
    try {
      int version = (int) integer(root, "formatVersion");
      if (version < 1 || version > MonitorSnapshot.FORMAT_VERSION) {
        throw new SnapshotException("format version " + version + " is not supported: this "
            + "reader accepts versions 1 to " + MonitorSnapshot.FORMAT_VERSION);
      }
      JsonNode rev = field(root, "revision");
      JsonNode f = field(root, "failure");
      Failure failure = f.isNull() ? null : new Failure(integer(f, "tick"),
          optText(f, "stream"), text(f, "reason"));
      List<StreamState> streams = new ArrayList<>();
      for (JsonNode st : array(root, "streams")) {
        List<OperatorState> ops = new ArrayList<>();
        for (JsonNode op : array(st, "operators")) {
          ops.add(new OperatorState(text(op, "kind"), values(array(op, "values"))));
        }
        streams.add(new StreamState(text(st, "name"), text(st, "role"),
            optText(st, "declaredType"), text(st, "fingerprint"), value(field(st, "current")),
            value(field(st, "lastPresent")), (int) integer(st, "historyDepth"),
            values(array(st, "history")), ops));
      }
      return new MonitorSnapshot(version, text(root, "program"), text(root, "definitionKey"),
          integer(root, "nextTick"), new MonitorRevision(integer(rev, "root"),
              integer(rev, "properties")), failure, streams);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new SnapshotException("not a snapshot: " + e.getMessage());
    }
  }

  private static JsonNode field(JsonNode n, String name) {
    JsonNode v = n == null ? null : n.get(name);
    if (v == null) {
      throw new SnapshotException("missing field '" + name + "'");
    }
    return v;
  }

  private static String text(JsonNode n, String name) {
    JsonNode v = field(n, name);
    if (!v.isTextual()) {
      throw new SnapshotException("field '" + name + "' must be a string");
    }
    return v.textValue();
  }

  private static String optText(JsonNode n, String name) {
    return field(n, name).isNull() ? null : text(n, name);
  }

  private static long integer(JsonNode n, String name) {
    JsonNode v = field(n, name);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new SnapshotException("field '" + name + "' must be an integer");
    }
    return v.longValue();
  }

  private static JsonNode array(JsonNode n, String name) {
    JsonNode v = field(n, name);
    if (!v.isArray()) {
      throw new SnapshotException("field '" + name + "' must be an array");
    }
    return v;
  }

  private static List<Value> values(JsonNode array) {
    List<Value> out = new ArrayList<>(array.size());
    for (JsonNode v : array) {
      out.add(value(v));
    }
    return out;
  }

  private static Value value(JsonNode n) {
    if (!n.isObject() || n.size() != 1) {
      throw new SnapshotException("a value must be an object with one field naming its kind: "
          + n);
    }
    Map.Entry<String, JsonNode> e = n.fields().next();
    JsonNode v = e.getValue();
    switch (e.getKey()) {
      case "Int":
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
          throw new SnapshotException("an Int must be a 64-bit integer: " + v);
        }
        return Value.of(v.longValue());
      case "Float":
        if (v.isTextual()) {
          switch (v.textValue()) {
            case "NaN": return Value.of(Double.NaN);
            case "Infinity": return Value.of(Double.POSITIVE_INFINITY);
            case "-Infinity": return Value.of(Double.NEGATIVE_INFINITY);
            default: throw new SnapshotException("not a Float: " + v);
          }
        }
        if (!v.isNumber()) {
          throw new SnapshotException("not a Float: " + v);
        }
        return Value.of(Double.parseDouble(v.asText()));
      case "FloatBits":
        try {
          return Value.of(Double.longBitsToDouble(Long.parseUnsignedLong(v.asText(), 16)));
        } catch (NumberFormatException x) {
          throw new SnapshotException("not Float bits: " + v);
        }
      case "Str":
        if (!v.isTextual()) {
          throw new SnapshotException("a Str must be a string: " + v);
        }
        return Value.of(v.textValue());
      case "Bool":
        if (!v.isBoolean()) {
          throw new SnapshotException("a Bool must be true or false: " + v);
        }
        return Value.of(v.booleanValue());
      case "Unit":
        return Value.UNIT;
      case "NoVal":
        return Value.NOVAL;
      case "Deferred":
        return Value.DEFERRED;
      case "List": {
        if (!v.isArray()) {
          throw new SnapshotException("a List must be an array: " + v);
        }
        return new Value.List(elements(values(v)));
      }
      case "Map": {
        if (!v.isObject()) {
          throw new SnapshotException("a Map must be an object: " + v);
        }
        TreeMap<String, Value> entries = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> x = it.next();
          entries.put(x.getKey(), elements(List.of(value(x.getValue()))).get(0));
        }
        return new Value.Map(entries);
      }
      default:
        throw new SnapshotException("unknown value kind '" + e.getKey() + "'");
    }
  }

  private static List<Value> elements(List<Value> values) {
    for (Value v : values) {
      if (!v.isPresent()) {
        throw new SnapshotException("a collection cannot hold " + v);
      }
    }
    return values;
  }
}
