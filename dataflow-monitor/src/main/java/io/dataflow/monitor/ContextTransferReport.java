package io.dataflow.monitor;

import java.util.List;

/**
 * What a state transfer did.
 *
 * @param transferred computed streams that kept their operator state (exact matches)
 * @param initialized computed streams that started cold
 * @param historiesRetained streams whose history moved to the new monitor
 */
public record ContextTransferReport(List<String> transferred, List<String> initialized,
    List<String> historiesRetained) {
  /** Copies the lists. */
  public ContextTransferReport {
    transferred = List.copyOf(transferred);
    initialized = List.copyOf(initialized);
    historiesRetained = List.copyOf(historiesRetained);
  }

  /** The report of a monitor that kept everything (RetainExact). */
  public static ContextTransferReport retainedAll(DataflowProgram program) {
    List<String> computed = new java.util.ArrayList<>();
    List<String> histories = new java.util.ArrayList<>();
    for (DataflowProgram.StreamDefinition s : program.streams()) {
      if (s.role() != DataflowProgram.Role.INPUT) {
        computed.add(s.name());
      }
      if (s.historyDepth() > 0) {
        histories.add(s.name());
      }
    }
    return new ContextTransferReport(computed, List.of(), histories);
  }
}
