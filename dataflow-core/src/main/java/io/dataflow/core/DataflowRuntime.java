package io.dataflow.core;

import io.dataflow.core.spi.ControlRequest;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * A running monitor with its sources and destinations: one owner thread evaluates every tick,
 * in the order the ingress queue admitted it, and writes the output rows.
 *
 * <h2>Building one</h2>
 * Every runtime is built by {@code ReconfigurableDataflowRuntimeBuilder.create()} (module
 * {@code dataflow-reconfig}): a specification or compiled program, sources, destinations, a
 * clock and {@code RuntimeOptions}. Its specification can then be replaced live through
 * {@link #submitControl}. In unit tests the testkit's {@code DataflowHarness} builds the same
 * runtime on a manual clock and steps it in the test's thread.
 *
 * <pre>{@code
 * DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
 *     .specification("counter.dsrv", "in x\nout z\nz = default(z[1], 0) + x")
 *     .destination("stdout", Sinks.text(System.out))
 *     .build();
 * runtime.start();
 * runtime.offer(Tick.of("x", Value.of(5)));
 * runtime.endOfInput();
 * ExitReport report = runtime.awaitTermination(Duration.ofSeconds(5));
 * }</pre>
 *
 * <h2>Hand-off</h2>
 * Offers from any number of threads go into one bounded queue, in the order admitted. Offering
 * is a queue insert: the owner thread is unparked only when it is parked, never once per offer
 * while it is busy. A full queue is never dropped: {@code offer} returns false (counted in
 * {@link RuntimeStatus#rejectedOffers()}), {@code submit} waits, backing off on the
 * {@link Clock} between attempts, until its timeout. A {@link TickBatch} takes one slot of the
 * queue for all its ticks, the fastest way in.
 *
 * <h2>Time</h2>
 * Every timeout of this interface is measured on the runtime's {@link Clock} (real time with
 * the {@link SystemClock}). A wait on a clock that moves only when told (the testkit's
 * {@code ManualClock}) lets that time pass at once, so no wait blocks a test.
 *
 * <h2>Errors</h2>
 * Refusals a caller can act on are unchecked {@link IngressException}s; a full queue makes
 * {@code offer} return false instead. {@link #awaitTermination} declares the two checked
 * exceptions of a blocking wait, {@link InterruptedException} and {@link TimeoutException}.
 *
 * <p>Thread-safety: every method is safe from any thread, except {@link #runInCallerThread},
 * which makes the calling thread the owner.
 */
public interface DataflowRuntime extends AutoCloseable {
  /** The source name of ticks offered through this handle (in warnings and reports). */
  String API_SOURCE = "api";

  /** Offers one tick without waiting; false when the ingress queue is full or closed (counted). */
  boolean offer(Tick tick);

  /** Offers a batch without waiting; false when the ingress queue is full or closed (counted). */
  boolean offer(TickBatch batch);

  /**
   * Submits one tick, waiting up to {@code timeout} (on the runtime's clock) for room.
   *
   * @throws IngressException when the queue stays full or the runtime stops accepting input
   */
  void submit(Tick tick, Duration timeout);

  /**
   * Submits a batch, waiting up to {@code timeout} (on the runtime's clock) for room.
   *
   * @throws IngressException when the queue stays full or the runtime stops accepting input
   */
  void submit(TickBatch batch, Duration timeout);

  /**
   * Submits a control item (a reconfiguration request), waiting up to {@code timeout} (on the
   * runtime's clock) for room; it takes effect after every tick admitted before it.
   *
   * @throws IngressException when the queue stays full or the runtime stops accepting input
   */
  void submitControl(ControlRequest request, Duration timeout);

  /** Declares that no more ticks will be offered through this handle. */
  void endOfInput();

  /**
   * Stops gracefully: no more input is admitted, admitted input is evaluated, the output is
   * flushed and closed, all within {@code timeout} (on the runtime's clock). Returns at once;
   * see {@link #awaitTermination(Duration)}.
   */
  void stop(Duration timeout);

  /**
   * Cancels the run: input not yet evaluated is not; evaluated rows are still written. The
   * report's outcome is {@code CANCELLED} with this reason (distinct from a failure).
   */
  void cancel(String reason);

  /** The latest consistent status snapshot. */
  RuntimeStatus status();

  /** The exit report, or null while the runtime has not terminated. */
  ExitReport exitReport();

  /** True once the runtime has terminated. */
  boolean isTerminated();

  /**
   * Waits up to {@code timeout} (on the runtime's clock) for the runtime to terminate.
   *
   * @return the exit report
   * @throws TimeoutException when it has not terminated in time
   * @throws InterruptedException when the waiting thread is interrupted
   */
  ExitReport awaitTermination(Duration timeout) throws InterruptedException, TimeoutException;

  /** Starts the owner loop on a thread of its own. */
  void start();

  /**
   * Runs the owner loop in the calling thread until the runtime terminates (the same loop
   * {@link #start()} runs), and returns the exit report.
   */
  ExitReport runInCallerThread();

  /** Stops with the close timeout and waits for termination (bounded). */
  @Override
  void close();

  /** The name of this runtime (thread names, logs). */
  String name();

  /** The clock this runtime reads. */
  Clock clock();
}
