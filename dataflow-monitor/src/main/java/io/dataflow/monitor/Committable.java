package io.dataflow.monitor;

/** Operator state that takes this tick's sample once the whole row has succeeded. */
interface Committable {
  /** Commits this tick's pending sample (owner thread only). */
  void commit();
}
