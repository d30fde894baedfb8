package io.dataflow.monitor.eval;

/**
 * What gives a dynamic property's body that stays active generated code. The code generator
 * implements it and the monitor hands it to its {@link Evaluator}: the evaluator does not
 * depend on the code generator.
 */
public interface BodyCompiler {
  /**
   * Straight-line code for the subtree under {@code root} (the body's root node), or null when
   * none can be made (the interpreter then goes on).
   */
  CompiledBody compile(Node root);

  /** Runs a compilation off the owner thread. */
  void inBackground(Runnable task);
}
