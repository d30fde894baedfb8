package io.dataflow.core.snapshot;

import io.dataflow.core.Value;
import java.util.List;
import java.util.Objects;

/**
 * The state of one stateful operator of a stream: a kind tag naming the operator (so a reader
 * can check that the state fits the operator it is loaded into) and its state as an ordered
 * list of values (lifting memories, flags as {@code Bool}, counters as {@code Int}, ...).
 *
 * @param kind the operator's kind, e.g. {@code Delay} or {@code Update}
 * @param values the operator's state, in the operator's own order
 */
public record OperatorState(String kind, List<Value> values) {
  /** Validates and copies. */
  public OperatorState {
    Objects.requireNonNull(kind, "kind");
    values = OwnedList.own(values);
  }
}
