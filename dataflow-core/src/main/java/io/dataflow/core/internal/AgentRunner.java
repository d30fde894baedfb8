package io.dataflow.core.internal;

import io.dataflow.core.Clock;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs an {@link Agent} on a thread of its own until it is done: an idle agent parks on the
 * clock until its next deadline, at most {@link #IDLE_PARK_NANOS}, or until {@link #wake()}.
 * An error escaping {@code doWork} is handed to {@code onDeath}, once, and ends the thread.
 */
public final class AgentRunner {
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(AgentRunner.class);
  }
  /** The longest park of an idle agent: bounds the latency of a wake-up that was missed. */
  public static final long IDLE_PARK_NANOS = 1_000_000;

  private final Agent agent;
  private final Clock clock;
  private final java.util.function.Consumer<Throwable> onDeath;
  private volatile Thread thread;

  /** A runner for {@code agent} on {@code clock}; {@code onDeath} gets an escaped error. */
  public AgentRunner(Agent agent, Clock clock, java.util.function.Consumer<Throwable> onDeath) {
    this.agent = agent;
    this.clock = clock;
    this.onDeath = onDeath;
  }

  /** Starts the agent's thread. */
  public synchronized void start() {
    if (thread != null) {
      throw new IllegalStateException(agent.name() + " already started");
    }
    Thread t = new Thread(this::loop, agent.name());
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  private void loop() {
    try {
      while (!agent.isDone()) {
        if (agent.doWork() == 0 && !agent.isDone()) {
          long now = clock.nanoTime();
          clock.parkUntil(Math.min(agent.nextDeadline(), now + IDLE_PARK_NANOS));
        }
      }
    } catch (Throwable t) {
      log().error("{}: agent died", agent.name(), t);
      onDeath.accept(t);
    }
  }

  /** Unparks the agent's thread (after handing it work). */
  public void wake() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** Waits up to {@code millis} of real time for the thread to end; true when it ended. */
  public boolean join(long millis) throws InterruptedException {
    Thread t = thread;
    if (t == null) {
      return true;
    }
    t.join(Math.max(1, millis));
    return !t.isAlive();
  }
}
