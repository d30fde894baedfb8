package io.dataflow.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the state of a running monitor maps onto a replacement program, decided from the two
 * programs alone (no monitor is touched). A stream keeps its operator state only when it is
 * computed in both programs with the same semantic fingerprint; a stream's history moves when
 * the stream exists in both with the same declared type, resized to the new depth.
 *
 * @param streams one entry per stream of the target program, in its declaration order
 * @param retainExact true when the two programs have the same definition key
 */
public record TransferMapping(List<StreamTransfer> streams, boolean retainExact) {
  /**
   * The mapping of one target stream.
   *
   * @param name the stream
   * @param existed whether the source program declares it
   * @param keepState whether its operator state moves (exact match)
   * @param keepHistory whether its history moves (same name and declared type)
   * @param depth its history depth in the target
   */
  public record StreamTransfer(String name, boolean existed, boolean keepState,
      boolean keepHistory, int depth) {}

  /** Copies the list. */
  public TransferMapping {
    streams = List.copyOf(streams);
  }

  /** Maps {@code from} onto {@code to}. */
  public static TransferMapping plan(DataflowProgram from, DataflowProgram to) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    return plan(from::stream, from.definitionKey(), to);
  }

  /**
   * Maps the streams {@code from} finds by name (with their role, declared type and
   * fingerprint) onto {@code to}: the rules of {@link #plan(DataflowProgram, DataflowProgram)}
   * for a source that is not a program (a snapshot's streams).
   */
  static TransferMapping plan(
      java.util.function.Function<String, java.util.Optional<DataflowProgram.StreamDefinition>>
          from, String fromKey, DataflowProgram to) {
    List<StreamTransfer> out = new ArrayList<>();
    for (DataflowProgram.StreamDefinition t : to.streams()) {
      var f = from.apply(t.name());
      boolean existed = f.isPresent();
      boolean sameType = existed && Objects.equals(f.get().declaredType(), t.declaredType());
      boolean computed = t.role() != DataflowProgram.Role.INPUT;
      boolean keepState = existed && computed && f.get().role() != DataflowProgram.Role.INPUT
          && io.dataflow.core.snapshot.MonitorSnapshot.sameHash(f.get().fingerprint(),
              t.fingerprint());
      out.add(new StreamTransfer(t.name(), existed, keepState, sameType, t.historyDepth()));
    }
    return new TransferMapping(out,
        io.dataflow.core.snapshot.MonitorSnapshot.sameHash(fromKey, to.definitionKey()));
  }
}
