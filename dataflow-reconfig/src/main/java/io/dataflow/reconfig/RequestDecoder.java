package io.dataflow.reconfig;

import com.fasterxml.jackson.databind.JsonNode;
import io.dataflow.io.internal.Json5;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Decodes a request from JSON5 (plain JSON, comments, single quotes, unquoted keys, trailing
 * commas). Unknown fields are rejected; {@code specification} is required and not blank.
 *
 * <pre>
 * {
 *   specification: "in x\nout z\nz = x",
 *   input:  { sources: { main: {}, extra: { type: "jsonl-file", path: "more.jsonl" } },
 *             streams: { x: "main" } },
 *   output: { destinations: { stdout: {}, alerts: { type: "jsonl-file", path: "a.jsonl" } },
 *             streams: { z: "alerts" } },
 * }
 * </pre>
 */
public final class RequestDecoder {
  private static final Set<String> TOP = Set.of("specification", "input", "output");
  private static final Set<String> INPUT = Set.of("sources", "streams");
  private static final Set<String> OUTPUT = Set.of("destinations", "streams");

  private RequestDecoder() {}

  /**
   * Decodes one request.
   *
   * @param origin where the text came from, for messages
   * @throws RequestException when the text is malformed or the request invalid
   */
  public static ReconfigurationRequest decode(String json5, String origin) {
    JsonNode root;
    try {
      root = Json5.parseObject(json5);
    } catch (Json5.SyntaxError e) {
      throw new RequestException("malformed request (column " + e.column() + "): "
          + e.getMessage(), origin, true);
    }
    return decode(root, origin);
  }

  static ReconfigurationRequest decode(JsonNode root, String origin) {
    onlyFields(root, TOP, "request", origin);
    JsonNode spec = root.get("specification");
    if (spec == null || spec.isNull()) {
      throw new RequestException("the request has no 'specification'", origin);
    }
    if (!spec.isTextual()) {
      throw new RequestException("'specification' must be a string", origin);
    }
    Bindings input = bindings(root.get("input"), "input", "sources", INPUT, origin);
    Bindings output = bindings(root.get("output"), "output", "destinations", OUTPUT, origin);
    return new ReconfigurationRequest(spec.textValue(), input, output, origin);
  }

  private static Bindings bindings(JsonNode node, String what, String endpointsField,
      Set<String> fields, String origin) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw new RequestException("'" + what + "' must be an object", origin);
    }
    onlyFields(node, fields, what, origin);
    Map<String, IoSpec> endpoints = null;
    JsonNode e = node.get(endpointsField);
    if (e != null && !e.isNull()) {
      if (!e.isObject()) {
        throw new RequestException("'" + what + "." + endpointsField + "' must be an object",
            origin);
      }
      endpoints = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> it = e.properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> entry = it.next();
        endpoints.put(entry.getKey(), ioSpec(entry.getValue(),
            what + "." + endpointsField + "." + entry.getKey(), origin));
      }
    }
    Map<String, String> streams = new LinkedHashMap<>();
    JsonNode s = node.get("streams");
    if (s != null && !s.isNull()) {
      if (!s.isObject()) {
        throw new RequestException("'" + what + ".streams' must be an object", origin);
      }
      Iterator<Map.Entry<String, JsonNode>> it = s.properties().iterator();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> entry = it.next();
        if (!entry.getValue().isTextual()) {
          throw new RequestException("'" + what + ".streams." + entry.getKey()
              + "' must name a " + (what.equals("input") ? "source" : "destination"), origin);
        }
        streams.put(entry.getKey(), entry.getValue().textValue());
      }
    }
    return new Bindings(endpoints, streams);
  }

  private static IoSpec ioSpec(JsonNode node, String path, String origin) {
    if (node.isNull()) {
      return IoSpec.KEEP;
    }
    if (!node.isObject()) {
      throw new RequestException("'" + path + "' must be an object", origin);
    }
    if (node.size() == 0) {
      return IoSpec.KEEP;
    }
    JsonNode type = node.get("type");
    if (type == null || !type.isTextual()) {
      throw new RequestException("'" + path + "' needs a string 'type' (or {} to keep the "
          + "existing one)", origin);
    }
    Map<String, String> params = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> f = it.next();
      if (f.getKey().equals("type")) {
        continue;
      }
      if (!f.getValue().isValueNode() || f.getValue().isNull()) {
        throw new RequestException("'" + path + "." + f.getKey() + "' must be a plain value",
            origin);
      }
      params.put(f.getKey(), f.getValue().asText());
    }
    return IoSpec.of(type.textValue(), params);
  }

  private static void onlyFields(JsonNode node, Set<String> allowed, String what,
      String origin) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!allowed.contains(n)) {
        throw new RequestException("unknown field '" + n + "' in " + what + " (expected "
            + String.join(", ", new java.util.TreeSet<>(allowed)) + ")", origin);
      }
    }
  }
}
