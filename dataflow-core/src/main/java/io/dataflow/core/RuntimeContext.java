package io.dataflow.core;

/**
 * What a {@link ControlHandler} may use while it runs: the engine (to flush, swap the monitor
 * and rebuild layouts), the sessions, the timers and the clock.
 *
 * <p>Thread-safety: owner thread only, and only during the handler call.
 */
public interface RuntimeContext {
  /** The engine evaluating ticks. */
  DirectDataflowEngine engine();

  /** The active input session. */
  InputSession inputSession();

  /** The active output session. */
  OutputSession outputSession();

  /** The runtime's clock. */
  Clock clock();

  /** The owner loop's timers. */
  TimerQueue timers();

  /** The interface revision reported in status and the exit report. */
  long interfaceRevision();

  /** Sets the interface revision (a reconfiguration that changed the interface). */
  void setInterfaceRevision(long revision);
}
