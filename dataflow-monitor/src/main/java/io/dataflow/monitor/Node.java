package io.dataflow.monitor;

/**
 * An evaluator node: {@link #eval()} computes this tick's value into the node's own slot, which
 * the parent then reads. Nodes are built per monitor from the immutable program and keep their
 * operator state (lifting memories, delay results) in fields.
 *
 * <p>Thread-safety: owner thread only.
 */
abstract class Node extends Slot {
  /** Computes this tick's value; throws {@link EvalError} on a runtime error. */
  abstract void eval();

  /**
   * True when {@link #eval()} does nothing (a stream cell or a constant): parents skip the
   * call, which keeps their call sites free for the nodes that compute.
   */
  boolean isLeaf() {
    return false;
  }
}
