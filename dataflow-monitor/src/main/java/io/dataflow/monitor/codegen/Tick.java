package io.dataflow.monitor.codegen;

import io.dataflow.monitor.eval.Evaluator;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.Slot;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TypeCheck;
import java.util.List;

/**
 * What one monitor's tick is made of, as the emitters see it: the streams in order with the
 * nodes each computes (children first), the inputs with their checks and staged values, the
 * outputs, the rings and operator state to commit.
 */
record Tick(Evaluator monitor, StreamCell[] order, List<List<Node>> schedules,
    boolean[] checked, StreamCell[] inputs, TypeCheck.Compiled[] inputChecks, Slot[] staged,
    StreamCell[] outputs, StreamCell[] ringCells, StreamCell[] committing, boolean checkOutputs,
    boolean[] repairable) {
  /** Whether the program has dynamic properties ({@code repairable} is then not null). */
  boolean dynamic() {
    return repairable != null;
  }

  /** The check stream {@code s} (of {@link #order}) runs inline, or null. */
  TypeCheck.Compiled check(int s) {
    return checked[order[s].index] ? inputChecks[order[s].index] : null;
  }

  /** The line of the specification where stream {@code s}'s equation starts. */
  int line(int s) {
    return monitor.spec().location(order[s].index).line();
  }

  /** The specification's file name: the generated class's source file. */
  String source() {
    return monitor.spec().file();
  }
}
