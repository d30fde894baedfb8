package io.dataflow.monitor.eval;

/**
 * An evaluator node: {@link #eval()} computes this tick's value into the node's own slot, which
 * the parent then reads. Nodes are built per monitor from the immutable program and keep their
 * operator state (lifting memories, delay results) in fields.
 *
 * <p>Thread-safety: owner thread only.
 */
public abstract class Node extends Slot {
  /**
   * True when the node's static type is Int, Float or Bool: its value is then a scalar or an
   * absence marker, never a reference (the generated code keeps such values in locals).
   */
  @Derived // set by the builder from the static type
  public boolean scalar;

  /** Computes this tick's value; throws {@link EvalError} on a runtime error. */
  public abstract void eval();

  /** No inputs: a leaf, or an opaque node that evaluates its own operands. */
  static final Node[] NO_INPUTS = new Node[0];

  /**
   * The operands {@link #eval()} evaluates before it computes, in order; empty for leaves and
   * for opaque nodes (an {@code if}, whose branches may fail without failing it; a dynamic
   * property; a function application), which evaluate their operands themselves.
   */
  public Node[] inputs() {
    return NO_INPUTS;
  }

  /**
   * This tick's value, given that every node of {@link #inputs()} was evaluated this tick:
   * {@code eval()} is "evaluate the inputs, then compute()". The fused evaluator calls the
   * nodes' {@code compute()} in post-order instead. An opaque node computes by evaluating.
   */
  public void compute() {
    eval();
  }

  /**
   * True when {@link #eval()} does nothing (a stream cell or a constant): parents skip the
   * call, which keeps their call sites free for the nodes that compute.
   */
  public boolean isLeaf() {
    return false;
  }
}
