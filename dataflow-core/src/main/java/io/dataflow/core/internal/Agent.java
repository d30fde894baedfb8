package io.dataflow.core.internal;

/**
 * A duty-cycle agent: a thread's whole behaviour as one non-blocking step, {@link #doWork()},
 * called in a loop. A runtime runs each agent on a thread of its own ({@link AgentRunner}); a
 * test steps every agent from its own thread, in any order, on a manual clock. The owner loop
 * and the keyed pipeline's controller and drivers are agents.
 */
public interface Agent {
  /**
   * One step: reads the clock once, does what is due, never blocks.
   *
   * @return how much work was done (0 when idle)
   */
  int doWork();

  /** True once this agent has finished: {@link #doWork()} has nothing more to do. */
  boolean isDone();

  /** The agent's name (its thread's name). */
  String name();

  /**
   * The clock reading at which this agent next has something due (a timer), or
   * {@link Long#MAX_VALUE}; its runner parks until then when idle.
   */
  default long nextDeadline() {
    return Long.MAX_VALUE;
  }
}
