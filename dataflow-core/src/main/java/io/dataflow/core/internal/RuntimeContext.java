package io.dataflow.core.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.ComponentException;

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

  /**
   * Establishes the local boundary at the control item being handled: every item admitted to
   * the ingress queue so far is behind it. The data the named sources had admitted there is
   * evaluated now, in order, under the active monitor and the current input bindings, and its
   * output flushed; a source's data after its own next control item, end or failure keeps its
   * place. Every other item keeps its order and is handled after the current control item.
   *
   * <p>The cutover calls this before it detaches or rebinds sources, so the old monitor
   * evaluates everything the old input configuration delivered.
   *
   * @param sources the sources whose admitted data to evaluate now
   * @return the number of ticks evaluated
   * @throws ComponentException when evaluating fails ({@code monitor}) or the output fails
   *     ({@code sink})
   */
  long evaluateAdmitted(java.util.Set<String> sources);
}
