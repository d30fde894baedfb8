package io.dataflow.monitor.eval;

/**
 * A dynamic property's body as code that computes the body's value into its root node's slot:
 * the interpreter, or straight-line code generated for the body (which implements this
 * interface from {@code io.dataflow.monitor.codegen}).
 *
 * <p>Thread-safety: owner thread only.
 */
public interface CompiledBody {
  /** Evaluates the body once. */
  void run();
}
