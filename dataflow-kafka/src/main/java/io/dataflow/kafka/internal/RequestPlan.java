package io.dataflow.kafka.internal;

import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.reconfig.ReconfigurationException;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RequestDecoder;

/**
 * A reconfiguration request from a control topic, planned the way the pipeline plans one
 * (monitor only: a request naming bindings is refused; the same definition is {@code
 * RetainExact}, another a {@code Transfer} with the transfer rules).
 *
 * @param candidate the program after the request
 * @param mapping how each key's state moves
 * @param plan {@code RetainExact} or {@code Transfer}
 */
public record RequestPlan(DataflowProgram candidate, TransferMapping mapping, String plan) {
  /**
   * Decodes and plans {@code json5} against {@code active}.
   *
   * @param origin where the request came from (a control topic and offset), for messages and
   *     the candidate program's name
   * @throws ReconfigurationException when the request does not decode, names bindings or does
   *     not compile: nothing changes
   */
  public static RequestPlan of(String json5, String origin, DataflowProgram active) {
    ReconfigurationRequest request;
    try {
      request = RequestDecoder.decode(json5, origin);
    } catch (RuntimeException e) {
      throw new ReconfigurationException("the request does not decode: " + e.getMessage(), e);
    }
    if (request.input() != null || request.output() != null) {
      throw new ReconfigurationException("the input and output are fixed by the topics; the"
          + " request may only replace the specification");
    }
    DataflowProgram candidate;
    try {
      candidate = DataflowProgram.compile("<request from " + origin + ">",
          request.specification(), active.typingMode());
    } catch (SpecException e) {
      throw new ReconfigurationException("the replacement specification does not compile: "
          + e.getMessage(), e);
    }
    TransferMapping mapping = TransferMapping.plan(active, candidate);
    return new RequestPlan(candidate, mapping, mapping.retainExact() ? "RetainExact"
        : "Transfer");
  }
}
