package io.dataflow.reconfig;

import io.dataflow.core.spi.ControlRequest;
import java.util.Objects;

/**
 * A request to replace the running specification and optionally its input and output
 * bindings (docs/reconfiguration.md#requests). Decoding one ({@link RequestDecoder}) does not
 * accept it: the runtime plans it when it reaches the head of the ingress queue and accepts it only
 * if the plan succeeds.
 *
 * @param specification the replacement specification text (required, not blank)
 * @param input the input bindings, or null to resolve every input from the active sources
 * @param output the output bindings, or null to resolve every output from the active
 *     destinations
 * @param origin where the request came from, for messages ({@code trace.input:3:14},
 *     {@code api})
 */
public record ReconfigurationRequest(String specification, Bindings input, Bindings output,
    String origin) implements ControlRequest {
  /** Validates the request. */
  public ReconfigurationRequest {
    Objects.requireNonNull(specification, "specification");
    if (specification.isBlank()) {
      throw new RequestException("the request's specification is blank", origin);
    }
    origin = origin == null ? "api" : origin;
  }

  /** A request replacing only the specification. */
  public static ReconfigurationRequest of(String specification) {
    return new ReconfigurationRequest(specification, null, null, "api");
  }

  @Override
  public String describe() {
    return "reconfiguration request from " + origin;
  }
}
