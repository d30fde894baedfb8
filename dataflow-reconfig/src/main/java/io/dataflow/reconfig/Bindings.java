package io.dataflow.reconfig;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The input or output half of a request: which sources (or destinations) should exist, and
 * which streams each one owns.
 *
 * @param endpoints the sources or destinations that should exist after the request, by name;
 *     null keeps the active set unchanged
 * @param streams explicit ownership: stream name to source (or destination) name; streams not
 *     listed are resolved from the active endpoints
 */
public record Bindings(Map<String, IoSpec> endpoints, Map<String, String> streams) {
  /** Copies the maps, keeping their order. */
  public Bindings {
    endpoints = endpoints == null ? null
        : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(endpoints));
    streams = streams == null ? Map.of()
        : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(streams));
  }
}
