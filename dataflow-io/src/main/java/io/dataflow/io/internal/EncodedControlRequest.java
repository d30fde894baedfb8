package io.dataflow.io.internal;

import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.SourceLocation;

/**
 * A control request as a source read it: JSON5 text and where it came from (an
 * {@code @reconfigure} line, a {@code {"$reconfigure": ...}} JSON line). The control handler
 * decodes it.
 *
 * @param json the JSON5 text of the request object
 * @param origin where the request was read
 */
public record EncodedControlRequest(String json, SourceLocation origin) implements ControlRequest {
  @Override
  public String describe() {
    return "request at " + origin;
  }
}
