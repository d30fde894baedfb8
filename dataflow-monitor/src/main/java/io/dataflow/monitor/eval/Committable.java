package io.dataflow.monitor.eval;

/** Operator state that takes this tick's sample once the whole row has succeeded. */
public interface Committable {
  /** Commits this tick's pending sample (owner thread only). */
  void commit();
}
