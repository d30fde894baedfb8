package io.dataflow.monitor.codegen;

import io.dataflow.core.Kind;
import io.dataflow.monitor.eval.Evaluator;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.Nodes;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypedNodes;
import io.dataflow.monitor.lang.Type;

/**
 * Which programs fuse into the batch loop ({@link BatchEmitter}), and the static scalar kind
 * of each value there. The loop covers typed scalar inputs, and computed streams made only of
 * typed scalar operators ({@link TypedNodes}) whose operands both have one of the operator's
 * operand kinds, history reads of scalar streams and {@code default}; no dynamic property, no
 * operator state to commit, no output checked at run time. Every value of a tick then is
 * NoVal, Deferred or of its static kind.
 */
final class Coverage {
  private final Evaluator monitor;

  Coverage(Evaluator monitor) {
    this.monitor = monitor;
  }

  /** Whether the batch loop covers the program. */
  boolean batchable(Tick tick) {
    if (tick.dynamic() || tick.committing().length > 0 || tick.checkOutputs()) {
      return false;
    }
    for (StreamCell c : tick.ringCells()) {
      if (kindOf(c) < 0) {
        return false; // history of references does not fit in locals
      }
    }
    for (StreamCell c : tick.inputs()) {
      if (kindOf(c) < 0 || tick.inputChecks()[c.index] == null) {
        return false;
      }
    }
    for (StreamCell c : tick.order()) {
      if (tick.checked()[c.index] || kindOf(c) < 0 || !covered(c.root)) {
        return false;
      }
    }
    return true;
  }

  /** The static scalar kind of a value (Bool, Int, Float), or -1. */
  int kindOf(Node n) {
    if (n instanceof StreamCell c) {
      Type t = monitor.spec().streamType(c.index);
      return t.equals(Type.INT) ? Kind.INT : t.equals(Type.FLOAT) ? Kind.FLOAT
          : t.equals(Type.BOOL) ? Kind.BOOL : -1;
    }
    if (n instanceof Nodes.Const k) {
      return k.tag == Kind.INT || k.tag == Kind.FLOAT || k.tag == Kind.BOOL ? k.tag : -1;
    }
    if (n instanceof TypedNodes.TypedBinary t) {
      return t.resultKind();
    }
    if (n instanceof TemporalNodes.HistoryRead h) {
      StreamCell c = ringOwner(h);
      return c == null ? -1 : kindOf(c);
    }
    if (n instanceof TemporalNodes.Default d) {
      int k = kindOf(d.value);
      return k == kindOf(d.fallback) ? k : -1;
    }
    return -1;
  }

  /** The stream whose shared ring a history read reads, or null. */
  private StreamCell ringOwner(TemporalNodes.HistoryRead h) {
    for (StreamCell c : monitor.cells()) {
      if (c.ring != null && c.ring == h.ring) {
        return c;
      }
    }
    return null;
  }

  private boolean covered(Node n) {
    if (n instanceof StreamCell || n instanceof Nodes.Const
        || n instanceof TemporalNodes.HistoryRead) {
      return kindOf(n) >= 0;
    }
    if (n instanceof TemporalNodes.Default d) {
      return kindOf(d) >= 0 && covered(d.value) && covered(d.fallback);
    }
    if (!(n instanceof TypedNodes.TypedBinary t)) {
      return false;
    }
    int l = kindOf(t.left);
    if (l < 0 || l != kindOf(t.right) || !TypedOperatorCode.computesOn(t, l)) {
      return false;
    }
    return covered(t.left) && covered(t.right);
  }
}
