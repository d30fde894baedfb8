package io.dataflow.reconfig;

import java.util.Map;
import java.util.Objects;

/**
 * A source or destination described in a request: a {@code type} and its parameters, or
 * nothing at all ({@link #KEEP}) to keep an existing one of that name as it is.
 *
 * @param type the kind ({@code trace-file}, {@code jsonl-file}, {@code stdout-text}, ...), or
 *     null for "keep the existing one"
 * @param params the parameters ({@code path}, ...)
 */
public record IoSpec(String type, Map<String, String> params) {
  /** Keep the existing source or destination of that name. */
  public static final IoSpec KEEP = new IoSpec(null, Map.of());

  /** Copies the parameters. */
  public IoSpec {
    params = Map.copyOf(Objects.requireNonNull(params, "params"));
  }

  /** A spec of the given type and parameters. */
  public static IoSpec of(String type, Map<String, String> params) {
    return new IoSpec(Objects.requireNonNull(type, "type"), params);
  }

  /** True for {@link #KEEP}. */
  public boolean isKeep() {
    return type == null;
  }

  /** A parameter, or an error naming it. */
  public String require(String name) {
    String v = params.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("'" + type + "' needs the parameter '" + name + "'");
    }
    return v;
  }

  @Override
  public String toString() {
    return isKeep() ? "{}" : type + params;
  }
}
