package io.dataflow.core.internal;

import io.dataflow.core.ComponentException;
import io.dataflow.core.DataflowException;
import io.dataflow.core.ExitReport;
import io.dataflow.core.MonitorException;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.RuntimeState;
import io.dataflow.core.RuntimeStatus;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Clock;
import io.dataflow.core.DataflowRuntime;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.snapshot.RuntimeCheckpoint;
import io.dataflow.core.spi.Monitor;
import io.dataflow.core.spi.RevisionedMonitor;
import io.dataflow.core.spi.ControlRequest;

/**
 * The single-owner loop: one thread owns the monitor, the engine and the input and output
 * sessions; everything else talks to it through the ingress queue.
 *
 * <h2>Implementation note</h2>
 * {@link #doWork()} is one duty cycle: read the clock once, fire due timers, poll pull-style
 * sources, take a bounded number of ingress items (data, control barriers, ends, failures),
 * and advance the lifecycle ({@link RuntimeState}). What the loop does is separate from which
 * thread runs it: {@link #start()} runs it on an owned thread with a park-until-woken idle
 * strategy; a caller (the testkit harness, the CLI) may instead call {@link #doWork()} itself.
 *
 * <p>Shutdown spends one absolute deadline: stop admitting input, evaluate what was admitted,
 * flush, close the output on a closer thread, and abandon it loudly if it is not done by the
 * deadline. The first fatal error wins ({@link FailureGate}); teardown runs every step and
 * joins errors ({@link Teardown}).
 *
 * <p>Thread-safety: the handle methods ({@code offer}, {@code submit}, {@code submitControl},
 * {@code endOfInput}, {@code stop}, {@code cancel}, {@code status}, {@code awaitTermination})
 * are safe from any thread; {@link #doWork()} is owner thread only.
 */
public final class OwnerLoop implements DataflowRuntime, Agent {
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(DataflowRuntime.class);
  }
  private static final int ITEMS_PER_CYCLE = 256;
  /** How long a waiter blocks before it reads the clock again (a manual clock may have moved). */
  private static final long TERMINATION_SLICE_NANOS = 10_000_000;
  /** How often the looping owner publishes its status while busy (see {@link #doWork()}). */
  private static final long STATUS_SLICE_NANOS = 1_000_000;
  /** ... or after so many busy cycles, whichever is first. */
  private static final int STATUS_SLICE_CYCLES = 64;

  private final String name;
  private final Clock clock;
  private final TimerQueue timers = new TimerQueue();
  private final Ingress ingress;
  private final InputSession input;
  private final OutputSession output;
  private final DirectDataflowEngine engine;
  /** The policy's flush after a delivery: only then is the queue looked at after each item. */
  private final boolean flushEachDelivery;
  private final InputWindowBuffer window;
  private final ControlHandler controlHandler;
  private final Duration closeTimeout;
  private final long statusEvery; // 0: no periodic status line
  private final java.util.function.Consumer<String> statusLines;
  private final CountDownLatch terminated = new CountDownLatch(1);
  // Checkpoints (owner thread): where, how often, and what was written last.
  private final CheckpointStore checkpoints;
  private final long checkpointEveryTicks;
  private final long checkpointEveryNanos;
  private final String checkpointBaseKey;
  private long checkpointSequence;
  private boolean wroteCheckpoint;
  private long ticksTaken; // ticks taken from the ingress (owner thread)
  private long ticksAtCheckpoint;
  private TimerQueue.Timer checkpointTimer;
  private volatile long lastCheckpointAt = -1; // clock time of the newest checkpoint; -1 none
  private RuntimeStatus lastReported; // owner thread
  private TimerQueue.Timer statusTimer; // owner thread
  private final FailureGate failures = new FailureGate();
  private final SourceContext api;
  private final Context context = new Context();
  private final List<String> warnings = new ArrayList<>();
  private final AtomicLong stopDeadline = new AtomicLong(Long.MAX_VALUE);
  /**
   * Items taken out of the ingress queue at a control barrier that stay behind it (see
   * {@link RuntimeContext#evaluateAdmitted}); handled before the queue, in order. Owner only.
   */
  private final ArrayDeque<Ingress.Item> carried = new ArrayDeque<>();
  private final java.util.Map<String, long[]> consumedItems = new java.util.HashMap<>(); // owner
  private String lastSource; // owner thread only: the source of the previous item ...
  private long[] lastCounter; // ... and its counter in consumedItems

  // Owner-thread state.
  private RuntimeState state = RuntimeState.NEW;
  private long deadline;
  private volatile OutputCloser closing;
  private ExitReport.DrainResult drain = ExitReport.DrainResult.COMPLETE;
  private boolean apiEnded;
  private boolean threaded;
  private boolean looping; // the owner runs loop() (its own thread or runInCallerThread)
  private boolean statusStale; // work was done since the last published status
  private long statusAt; // clock time of the last published status
  private int busyCycles; // cycles with work since the last published status
  private volatile long interfaceRevision;

  // Written by the owner, read by anyone.
  private volatile RuntimeStatus status;
  private volatile ExitReport report;
  private volatile boolean stopRequested;
  private volatile Thread ownerThread;

  OwnerLoop(DataflowRuntimeBuilder b) {
    this.name = b.name;
    this.clock = b.clock;
    this.ingress = new Ingress(b.ingressCapacity, clock, name);
    this.input = b.input;
    this.output = b.output;
    this.controlHandler = b.controlHandler;
    this.closeTimeout = b.closeTimeout;
    this.checkpoints = b.checkpoints;
    this.checkpointEveryTicks = b.checkpointEveryTicks;
    this.checkpointEveryNanos = b.checkpointEvery == null ? 0 : b.checkpointEvery.toNanos();
    this.checkpointBaseKey = b.checkpointBaseKey;
    this.statusEvery = b.statusEvery == null ? 0 : b.statusEvery.toNanos();
    this.statusLines =
        b.statusLines != null ? b.statusLines : line -> log().info("{}: {}", name, line);
    DirectDataflowEngine.Warnings sink = b.warnings == null ? this::warn : m -> {
      synchronized (warnings) {
        warnings.add(m);
      }
      b.warnings.warn(m);
    };
    this.engine = new DirectDataflowEngine(b.monitor, output, b.policy, sink);
    this.flushEachDelivery = b.policy.flushEachDelivery();
    this.window = new InputWindowBuffer(b.window, engine, timers);
    this.api = ingress.contextFor(API_SOURCE, true);
    publishStatus();
  }

  private void warn(String message) {
    log().warn("{}: {}", name, message);
    synchronized (warnings) {
      warnings.add(message);
    }
  }

  // ---------------------------------------------------------------- handle (any thread)

  /** Offers one tick; false when the ingress queue is full or closed (counted). */
  public boolean offer(Tick tick) {
    // One small item, no batch around it: the hot single-tick path allocates only this.
    return ingress.offer(new Ingress.Single(API_SOURCE, Objects.requireNonNull(tick, "tick")),
        true);
  }

  /** Offers a batch of ticks; false when the ingress queue is full or closed (counted). */
  public boolean offer(TickBatch batch) {
    return api.offer(batch);
  }

  @Override
  public void submit(Tick tick, Duration timeout) {
    ingress.submit(new Ingress.Single(API_SOURCE, Objects.requireNonNull(tick, "tick")),
        deadlineAfter(timeout));
  }

  @Override
  public void submit(TickBatch batch, Duration timeout) {
    api.submit(batch, deadlineAfter(timeout));
  }

  /**
   * Submits a control item; it takes effect after every tick admitted before it.
   *
   * @throws io.dataflow.core.IngressException when the queue stays full or the runtime stops
   *     accepting input
   */
  public void submitControl(ControlRequest request, Duration timeout) {
    api.submitControl(Objects.requireNonNull(request, "request"), deadlineAfter(timeout));
  }

  /** Declares that no more ticks will be offered through this handle. */
  public void endOfInput() {
    api.complete();
  }

  private long deadlineAfter(Duration timeout) {
    long now = clock.nanoTime();
    long d = timeout.toNanos();
    return d >= Long.MAX_VALUE - Math.max(0, now) ? Long.MAX_VALUE : now + d;
  }

  /**
   * Stops gracefully: no more input is admitted, admitted input is evaluated, the output is
   * flushed and closed, all within {@code timeout}. Returns at once; see
   * {@link #awaitTermination(Duration)}.
   */
  public void stop(Duration timeout) {
    stopDeadline.accumulateAndGet(deadlineAfter(timeout), Math::min);
    stopRequested = true;
    ingress.close();
    wakeOwner();
  }

  /**
   * Cancels the run: input not yet evaluated is not; evaluated rows are still written. The
   * report's outcome is {@code CANCELLED} with this reason (distinct from a failure).
   */
  public void cancel(String reason) {
    if (failures.cancel(reason)) {
      stop(closeTimeout);
    }
  }

  /** The latest consistent status snapshot. */
  public RuntimeStatus status() {
    return status;
  }

  /** The exit report, or null while the runtime has not terminated. */
  public ExitReport exitReport() {
    return report;
  }

  /** True once the runtime has terminated. */
  public boolean isTerminated() {
    return report != null;
  }

  @Override
  public boolean isDone() {
    return isTerminated();
  }

  @Override
  public long nextDeadline() {
    return nextTimerDeadline();
  }

  @Override
  public ExitReport awaitTermination(Duration timeout)
      throws InterruptedException, TimeoutException {
    // The deadline is on the runtime's clock, like every other timeout of the handle; the
    // waiting thread never moves that clock (the owner or the test does), it waits for the
    // owner's signal in short slices and reads the clock between them.
    long deadline = deadlineAfter(timeout);
    while (report == null) {
      long left = deadline - clock.nanoTime();
      if (left <= 0) {
        throw new TimeoutException(name + " did not terminate within " + timeout);
      }
      terminated.await(Math.min(left, TERMINATION_SLICE_NANOS), TimeUnit.NANOSECONDS);
    }
    return report;
  }

  /** Starts the owner loop on its own thread. */
  public synchronized void start() {
    if (ownerThread != null || threaded) {
      throw new IllegalStateException(name + " already started");
    }
    threaded = true;
    Thread t = new Thread(this::runLoop, name + "-owner");
    t.setDaemon(false);
    ownerThread = t;
    ingress.setOwner(t);
    t.start();
  }

  /** Stops with the close timeout and waits for termination (bounded). */
  @Override
  public void close() {
    stop(closeTimeout);
    if (threaded) {
      try {
        awaitTermination(closeTimeout.plusSeconds(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (TimeoutException e) {
        log().error("{}: owner thread did not terminate: {}", name, e.getMessage());
      }
    }
  }

  /**
   * Runs the owner loop in the calling thread until the runtime terminates (the stepper with
   * the same idle strategy as {@link #start()}), and returns the exit report.
   */
  public ExitReport runInCallerThread() {
    if (threaded) {
      throw new IllegalStateException(name + " runs on its own thread");
    }
    ownerThread = Thread.currentThread();
    ingress.setOwner(ownerThread);
    runLoop();
    return report;
  }

  private void runLoop() {
    try {
      loop();
    } catch (Throwable t) {
      log().error("{}: owner loop died", name, t);
      failures.fail("runtime", t);
      try {
        // Last resort: still flush, close the inputs and the output within the deadline.
        if (state.compareTo(RuntimeState.CLOSING) < 0) {
          beginClosing(clock.nanoTime(), deadlineAfter(closeTimeout));
        }
        loop();
      } catch (Throwable again) {
        t.addSuppressed(again);
        if (state != RuntimeState.TERMINATED) {
          terminate();
        }
      }
    }
  }

  private void loop() {
    looping = true;
    OwnerIdle idle = new OwnerIdle();
    while (state != RuntimeState.TERMINATED) {
      if (doWork() > 0) {
        idle.reset();
      } else if (state != RuntimeState.TERMINATED) {
        if (statusStale) {
          publishStatus(); // going idle: what the last busy cycles did is visible at once
        }
        long now = clock.nanoTime();
        long wake = Math.min(timers.nextDeadline(), now + 1_000_000);
        if (state == RuntimeState.CLOSING) {
          // Nothing more is taken from the queue (what is left is reported at the end): wait
          // for the output's closer only, whatever the queue holds.
          clock.parkUntil(Math.min(wake, Math.min(deadline, now + 100_000)));
        } else {
          idle.idle(ingress, wake);
        }
      }
    }
  }

  private void wakeOwner() {
    Thread t = ownerThread;
    if (t != null) {
      java.util.concurrent.locks.LockSupport.unpark(t);
    }
  }

  // ---------------------------------------------------------------- owner loop

  /**
   * One duty cycle. Owner thread only: either the thread {@link #start()} created or the one
   * caller that steps the runtime.
   *
   * @return how much work was done (0 when idle)
   */
  public int doWork() {
    if (threaded && Thread.currentThread() != ownerThread) {
      throw new IllegalStateException(name + " runs on its own thread; do not step it");
    }
    long now = clock.nanoTime();
    int work = 0;
    work += timers.fireDue(now);
    for (RuntimeException e; (e = timers.pollFailure()) != null; work++) {
      if (e instanceof ComponentException c) {
        fail(c.component(), c.getCause(), now);
      } else {
        fail(e instanceof MonitorException ? "monitor" : "timer", e, now);
      }
    }
    switch (state) {
      case NEW:
        work += begin(now);
        break;
      case RUNNING:
        work += running(now);
        break;
      case DRAINING:
        work += draining(now);
        break;
      case CLOSING:
        work += closingStep(now);
        break;
      case TERMINATED:
        return 0;
      default:
        throw new IllegalStateException(state.name());
    }
    if (work > 0) {
      statusStale = true;
      busyCycles++;
    }
    // A stepping caller sees every cycle's status; the looping owner publishes at most once per
    // STATUS_SLICE_NANOS while busy (a status costs an allocation and reads of the queue's
    // contended indices), or every STATUS_SLICE_CYCLES busy cycles on a clock that does not
    // move by itself, and once more when it goes idle (see loop()).
    if (statusStale && (!looping || now - statusAt >= STATUS_SLICE_NANOS
        || busyCycles >= STATUS_SLICE_CYCLES)) {
      publishStatus();
    }
    return work;
  }

  private int begin(long now) {
    if (ownerThread == null) {
      ingress.setOwner(Thread.currentThread());
    }
    clock.attach(timers);
    state = RuntimeState.RUNNING;
    if (checkpoints != null) {
      try {
        java.util.List<Long> written = checkpoints.sequences();
        checkpointSequence = written.isEmpty() ? 0 : written.get(written.size() - 1);
      } catch (IOException e) {
        fail("checkpoint", e, now);
      }
      ticksAtCheckpoint = ticksTaken;
      if (checkpointEveryNanos > 0) {
        checkpointTimer = timers.schedule(now + checkpointEveryNanos, this::checkpointFromTimer);
      }
    }
    if (statusEvery > 0) {
      publishStatus();
      lastReported = status;
      statusTimer = timers.schedule(now + statusEvery, this::reportStatus);
    }
    try {
      output.open(clock, timers);
      input.open(source -> ingress.contextFor(source, false));
    } catch (Exception e) {
      fail("startup", e, now);
    }
    return 1;
  }

  private int running(long now) {
    if (stopRequested) {
      if (failures.isSet()) {
        return beginClosing(now, stopDeadline.get());
      }
      state = RuntimeState.DRAINING;
      deadline = stopDeadline.get();
      return 1;
    }
    int work = 0;
    try {
      work += input.poll(now);
    } catch (RuntimeException e) {
      fail("input", e, now);
      return 1;
    }
    work += drainIngress(now);
    if (state == RuntimeState.RUNNING && nothingAdmitted() && inputComplete()) {
      return work + finishInput(now, deadlineAfter(closeTimeout));
    }
    return work;
  }

  private boolean inputComplete() {
    // apiEnded first: sources() copies the set, and this runs on every idle cycle.
    return input.isComplete() || (apiEnded && input.sources().isEmpty());
  }

  private int draining(long now) {
    if (failures.isSet()) {
      return beginClosing(now, deadline);
    }
    if (now - deadline >= 0) {
      return beginClosing(now, deadline); // what is still queued is reported at the end
    }
    int work = drainIngress(now);
    if (state == RuntimeState.DRAINING && nothingAdmitted()) {
      return work + finishInput(now, deadline);
    }
    return work;
  }

  private int finishInput(long now, long closeDeadline) {
    try {
      window.flush();
    } catch (IOException e) {
      fail("sink", e, now);
    } catch (RuntimeException e) {
      fail(componentOf(e), e, now);
    }
    if (checkpoints != null && !failures.isSet() && ticksTaken > ticksAtCheckpoint) {
      checkpoint(now); // the end of the input: a resume then has nothing left to do
    }
    return beginClosing(now, closeDeadline);
  }

  private int drainIngress(long now) {
    int work = 0;
    Ingress.Item item;
    while (work < ITEMS_PER_CYCLE && state.compareTo(RuntimeState.CLOSING) < 0
        && (item = nextItem()) != null) {
      work++;
      handle(item, now);
    }
    return work;
  }

  /** What a removed source still delivered: reported, never evaluated under another config. */
  private void dropRetired(Ingress.Item item) {
    String what = item instanceof Ingress.Data d ? d.batch().size() + " ticks"
        : item instanceof Ingress.Single ? "1 tick"
        : item instanceof Ingress.Control ? "a control request"
        : item instanceof Ingress.Failed f ? "its failure (" + f.error() + ")" : null;
    if (what != null) {
      warn("source '" + item.source() + "' was removed by a reconfiguration; " + what
          + " it delivered after that were dropped");
    }
  }

  /** Counts what a source delivered and the owner took: ticks and control items. */
  private void consumed(String source, int items) {
    counterOf(source)[0] += items;
  }

  /**
   * The counter of what the owner took from {@code source}: a map lookup per item, skipped
   * while items keep coming from the same source (the usual case, one tick at a time).
   */
  private long[] counterOf(String source) {
    if (source != lastSource) {
      lastCounter = consumedItems.computeIfAbsent(source, s -> new long[1]);
      lastSource = source;
    }
    return lastCounter;
  }

  /**
   * How many items (ticks and control items) the runtime has taken from each source so far, by
   * source name: a source's position for a checkpoint taken now, between two items (owner
   * thread only; the runtime's own handle is {@link DataflowRuntime#API_SOURCE}).
   */
  public java.util.Map<String, Long> consumedItems() {
    java.util.Map<String, Long> out = new java.util.TreeMap<>();
    consumedItems.forEach((k, v) -> out.put(k, v[0]));
    return out;
  }

  /** The next admitted item: what a barrier carried first, then the queue. */
  private Ingress.Item nextItem() {
    Ingress.Item item = carried.poll();
    return item != null ? item : ingress.poll();
  }

  private boolean nothingAdmitted() {
    return carried.isEmpty() && ingress.isEmpty();
  }

  /** See {@link RuntimeContext#evaluateAdmitted}. */
  private long evaluateAdmitted(Set<String> sources) {
    if (sources.isEmpty()) {
      return 0;
    }
    // The boundary: everything admitted up to now is behind the barrier being handled.
    for (Ingress.Item item; (item = ingress.poll()) != null; ) {
      carried.add(item);
    }
    Set<String> past = new HashSet<>(); // sources whose next item is not data
    long ticks = 0;
    long now = clock.nanoTime();
    try {
      for (Iterator<Ingress.Item> it = carried.iterator(); it.hasNext(); ) {
        Ingress.Item item = it.next();
        if (!sources.contains(item.source()) || past.contains(item.source())) {
          continue;
        }
        if (item instanceof Ingress.Data d) {
          it.remove();
          List<Tick> batch = d.batch().ticks();
          for (int i = 0, n = batch.size(); i < n; i++) {
            window.accept(input.admit(d.source(), batch.get(i)), now);
          }
          consumed(d.source(), batch.size());
          ticksTaken += batch.size();
          ticks += batch.size();
        } else if (item instanceof Ingress.Single one) {
          it.remove();
          window.accept(input.admit(one.source(), one.tick()), now);
          consumed(one.source(), 1);
          ticksTaken++;
          ticks++;
        } else {
          past.add(item.source()); // its control item, end or failure keeps its place
        }
      }
      window.flush();
      engine.flush();
    } catch (MonitorException e) {
      throw new ComponentException("monitor", e);
    } catch (IOException e) {
      throw new ComponentException("sink", e);
    }
    return ticks;
  }

  private void handle(Ingress.Item item, long now) {
    if (input.isRetired(item.source())) {
      dropRetired(item);
      return;
    }
    try {
      if (item instanceof Ingress.Single one) {
        take(one.source(), one.tick(), counterOf(one.source()), now);
        endOfDelivery();
      } else if (item instanceof Ingress.Data d && takeBatch(d, now)) {
        endOfDelivery();
      } else if (item instanceof Ingress.Data d) {
        java.util.List<Tick> ticks = d.batch().ticks();
        long[] taken = counterOf(d.source()); // looked up once per batch, counted per tick
        for (int i = 0, n = ticks.size(); i < n; i++) {
          take(d.source(), ticks.get(i), taken, now);
        }
        endOfDelivery();
      } else if (item instanceof Ingress.Control c) {
        consumed(c.source(), 1); // a control item is one item of its source's input
        window.flush();
        if (controlHandler == null) {
          throw new ComponentException("control", new DataflowException(
              "no control handler for " + c.request().describe()));
        }
        try {
          controlHandler.onControl(c.request(), context);
        } catch (ComponentException e) {
          throw e;
        } catch (Exception e) {
          throw new ComponentException("control", e);
        }
      } else if (item instanceof Ingress.End e) {
        if (e.source().equals(API_SOURCE)) {
          apiEnded = true;
        } else {
          input.onEndOfInput(e.source());
        }
      } else if (item instanceof Ingress.Failed f) {
        fail("source:" + f.source(), f.error(), now);
      }
    } catch (MonitorException e) {
      fail("monitor", e, now);
    } catch (IOException e) {
      fail("sink", e, now);
    } catch (ComponentException e) {
      fail(e.component(), e.getCause(), now);
    } catch (RuntimeException e) {
      fail(componentOf(e), e, now);
    }
  }

  /**
   * After a delivered tick or batch: the engine's flush for sources that deliver what they have
   * before they wait ({@link io.dataflow.core.ExecutionPolicy#flushEachDelivery()}), unless
   * more input is already queued behind it. The flush then comes after the last of that input:
   * output is pushed as soon as the owner has caught up with its input, which is when a paused
   * input needs it, and a stream that keeps the queue busy is not written once per batch.
   */
  private void endOfDelivery() throws IOException {
    // The policy first: reading the queue's indices per tick would cost a single-tick producer.
    if (flushEachDelivery && nothingAdmitted()) {
      engine.endOfDelivery();
    }
  }

  /**
   * Evaluates a whole batch when nothing stands between its source and the engine (no input
   * window, no stream ownership to enforce): a columnar batch through the monitor's batch path,
   * a batch of {@link Tick} objects straight into the engine, counted once per chunk instead of
   * per tick. Chunks end where a checkpoint is due; false when the batch must go tick by tick.
   */
  private boolean takeBatch(Ingress.Data d, long now) throws IOException {
    TickBatch b = d.batch();
    if (!window.passesThrough() || !input.admitsAll(d.source())) {
      return false;
    }
    List<Tick> ticks = b.columns() == null ? b.ticks() : null;
    long[] taken = counterOf(d.source());
    int n = b.size();
    for (int done = 0; done < n; ) { // as tick by tick: a failed checkpoint ends no batch
      int chunk = n - done;
      if (checkpointEveryTicks > 0) {
        long left = checkpointEveryTicks - (ticksTaken - ticksAtCheckpoint);
        chunk = (int) Math.max(1, Math.min(chunk, left));
      }
      long before = engine.ticksIn();
      try {
        if (ticks == null) {
          engine.process(b.columnShape(), b.columns(), done, done + chunk);
        } else {
          for (int i = done, end = done + chunk; i < end; i++) {
            engine.process(ticks.get(i)); // what window.accept(input.admit(...)) does here
          }
        }
      } catch (IOException | RuntimeException e) {
        // As tick by tick: the failed tick was handed to the monitor but is not counted.
        long evaluated = Math.max(0, engine.ticksIn() - before - 1);
        taken[0] += evaluated;
        ticksTaken += evaluated;
        throw e;
      }
      taken[0] += chunk;
      ticksTaken += chunk;
      done += chunk;
      if (checkpointDue()) {
        checkpoint(now); // inside a batch too: positions count single ticks
      }
    }
    if (ticks == null) {
      b.evaluated(); // the engine copied what it needed: the source may fill the columns again
    }
    return true;
  }

  /** Evaluates one tick a source delivered and counts it in {@code taken} (its source's). */
  private void take(String source, Tick tick, long[] taken, long now) throws IOException {
    window.accept(input.admit(source, tick), now);
    taken[0]++;
    ticksTaken++;
    if (checkpointDue()) {
      checkpoint(now); // inside a batch too: positions count single ticks
    }
  }

  /** The component an error came from: the monitor, a named component, or the runtime. */
  private static String componentOf(Throwable e) {
    if (e instanceof MonitorException) {
      return "monitor";
    }
    return e instanceof ComponentException c ? c.component() : "runtime";
  }

  private void fail(String component, Throwable error, long now) {
    failures.fail(component, error);
    if (state.compareTo(RuntimeState.CLOSING) < 0) {
      beginClosing(now, deadlineAfter(closeTimeout));
    }
  }

  private int beginClosing(long now, long closeDeadline) {
    if (state == RuntimeState.CLOSING || state == RuntimeState.TERMINATED) {
      return 0;
    }
    state = RuntimeState.CLOSING;
    deadline = closeDeadline;
    if (statusTimer != null) {
      statusTimer.cancel(); // nothing to report while closing; the exit report follows
    }
    if (checkpointTimer != null) {
      checkpointTimer.cancel();
    }
    ingress.close();
    int dropped = window.discard();
    if (dropped > 0) {
      warn(dropped + " windowed ticks were not evaluated");
    }
    Teardown teardown = new Teardown()
        .step("flush", engine::flush)
        .step("close input", input::close)
        .step("prepare output", output::beforeClose);
    Exception early = teardown.run();
    if (early != null) {
      failures.fail(early.getMessage().startsWith("close input") ? "input" : "sink", early);
    }
    // The output may block: close it on a closer thread so the deadline can be enforced.
    closing = new OutputCloser(name + "-closer", output::close);
    return 1;
  }

  private int closingStep(long now) {
    if (closing.isDone()) {
      Throwable cause = closing.failure();
      if (cause != null) {
        failures.fail("sink", cause);
      }
      terminate();
      return 1;
    }
    if (now - deadline >= 0) {
      long abandoned = output.abandon();
      drain = new ExitReport.DrainResult(false, abandoned,
          "the output did not close by the deadline; " + abandoned + " rows abandoned");
      synchronized (warnings) {
        warnings.add(drain.detail()); // logged once, as the run's fatal reason, just below
      }
      // Lost output is never a success: the run fails (unless it already failed or was
      // cancelled, which the report keeps) and the drain says how many rows were lost.
      failures.fail("sink", new DataflowException(drain.detail()));
      terminate();
      return 1;
    }
    return 0;
  }

  private void terminate() {
    state = RuntimeState.TERMINATED;
    if (statusTimer != null) {
      statusTimer.cancel();
    }
    ingress.terminate();
    reportUnevaluated();
    clock.detach(timers);
    long rejected = ingress.rejectedOffers();
    if (rejected > 0) {
      warn(rejected + " offers were refused because the ingress queue was full");
    }
    FailureGate.Failure f = failures.get();
    ExitReport.Outcome outcome = f == null ? ExitReport.Outcome.COMPLETED
        : f.cancel() ? ExitReport.Outcome.CANCELLED : ExitReport.Outcome.FAILED;
    ExitReport.CheckpointOutcome kept = checkpointOutcome(); // may add a warning
    List<String> w;
    synchronized (warnings) {
      w = List.copyOf(warnings);
    }
    report = new ExitReport(outcome, f == null ? null : f.component(),
        f == null ? null : f.reason(), f == null ? null : f.cause(), engine.ticksIn(),
        engine.ticksOut(), drain, monitorRevision(), interfaceRevision(), w,
        f == null ? null : f.fatal(), engine.monitor().nextTick(), kept,
        failures.pastPointOfNoReturn());
    publishStatus();
    terminated.countDown();
  }

  /**
   * The checkpoint decision of the run's end (the gate's, shared with the keyed pipeline): a
   * fatal reason that does not keep the last checkpoint resumable sets it aside (renamed, never
   * deleted), once, unless the run passed its point of no return.
   */
  private ExitReport.CheckpointOutcome checkpointOutcome() {
    // Never touch a checkpoint of another run: only one this run wrote.
    return failures.checkpointOutcome(checkpoints != null && wroteCheckpoint, why -> {
      Path aside = checkpoints.setAside(checkpointSequence, why);
      warn("checkpoint " + checkpointSequence + " set aside as " + aside + ": "
          + failures.get().fatal().kind() + " does not keep it resumable");
      return true;
    }, this::warn);
  }

  /**
   * Marks the point of no return (see {@link FailureGate#pointOfNoReturn()}): a durable
   * mutation started; safe from any thread.
   */
  public void pointOfNoReturn() {
    failures.pointOfNoReturn();
  }

  /** Counts what was admitted but never evaluated (cancel, failure, a passed deadline). */
  private void reportUnevaluated() {
    long ticks = 0;
    long requests = 0;
    for (Ingress.Item item; (item = nextItem()) != null; ) {
      if (item instanceof Ingress.Data d) {
        ticks += d.batch().size();
      } else if (item instanceof Ingress.Single) {
        ticks++;
      } else if (item instanceof Ingress.Control) {
        requests++;
      }
    }
    if (ticks > 0 || requests > 0) {
      warn(ticks + (ticks == 1 ? " tick and " : " ticks and ") + requests
          + (requests == 1 ? " control request" : " control requests")
          + " admitted to the ingress queue were not evaluated (the run ended first)");
    }
  }

  private MonitorRevision monitorRevision() {
    Monitor m = engine.monitor();
    return m instanceof RevisionedMonitor r ? r.revision() : MonitorRevision.INITIAL;
  }

  private long interfaceRevision() {
    return interfaceRevision;
  }

  /** Whether the ticks since the last checkpoint reached the interval (owner thread). */
  private boolean checkpointDue() {
    if (checkpointEveryTicks <= 0 || state.compareTo(RuntimeState.CLOSING) >= 0) {
      return false;
    }
    // Ticks taken, not evaluated: those still in an input window are flushed by the checkpoint.
    return ticksTaken - ticksAtCheckpoint >= checkpointEveryTicks;
  }

  private void checkpointFromTimer() {
    if (state.compareTo(RuntimeState.CLOSING) < 0) {
      checkpoint(clock.nanoTime());
      checkpointTimer = timers.schedule(clock.nanoTime() + checkpointEveryNanos,
          this::checkpointFromTimer);
    }
  }

  /**
   * Writes a checkpoint now, between two ingress items: the window and the engine are flushed
   * first, so every output of the ticks it covers has been handed to the destinations.
   */
  private void checkpoint(long now) {
    try {
      window.flush();
      engine.flush();
      Monitor m = engine.monitor();
      io.dataflow.core.snapshot.MonitorSnapshot snapshot = m.snapshot();
      RuntimeCheckpoint c = new RuntimeCheckpoint(checkpointSequence + 1, consumedItems(),
          checkpointBaseKey, snapshot.programName(), m.specification(), snapshot);
      checkpoints.write(c.sequence(), c.toBytes());
      checkpointSequence = c.sequence();
      wroteCheckpoint = true;
      ticksAtCheckpoint = ticksTaken;
      lastCheckpointAt = now;
    } catch (MonitorException e) {
      fail("monitor", e, now);
    } catch (IOException | RuntimeException e) {
      fail("checkpoint", e, now);
    }
  }

  /** The periodic status line: one status read, rates since the previous line. */
  private void reportStatus() {
    publishStatus();
    RuntimeStatus now = status;
    String line = now.line(lastReported);
    lastReported = now;
    statusTimer = timers.schedule(now.atNanos() + statusEvery, this::reportStatus);
    statusLines.accept(line);
  }

  private void publishStatus() {
    FailureGate.Failure f = failures.get();
    long now = clock.nanoTime();
    status = new RuntimeStatus(state, engine.ticksIn(), engine.ticksOut(),
        ingress.size() + carried.size(),
        ingress.rejectedOffers(), f == null ? null : f.reason(), monitorRevision(),
        interfaceRevision(), now, lastCheckpointAt);
    statusAt = now;
    statusStale = false;
    busyCycles = 0;
  }

  /** The name of this runtime (thread names, logs). */
  public String name() {
    return name;
  }

  /** The clock this runtime reads. */
  public Clock clock() {
    return clock;
  }

  /** The owner loop's timers (owner thread only). */
  public TimerQueue timers() {
    return timers;
  }

  /** The earliest timer deadline, or {@link Long#MAX_VALUE} (owner thread only). */
  public long nextTimerDeadline() {
    long t = timers.nextDeadline();
    return state == RuntimeState.CLOSING ? Math.min(t, deadline) : t;
  }

  /**
   * Waits, in real time and bounded, for the output close that shutdown started on the closer
   * thread (a stepping caller uses this instead of spinning).
   *
   * @return true when the close has finished (or none is running)
   */
  public boolean awaitOutputClosed(Duration timeout) throws InterruptedException {
    OutputCloser c = closing;
    return c == null || c.await(timeout);
  }

  /** The monitor the engine evaluates now (owner thread only; for inspection). */
  public Monitor activeMonitor() {
    return engine.monitor();
  }

  /** The lifecycle state (owner thread; others read {@link #status()}). */
  public RuntimeState state() {
    return state;
  }

  private final class Context implements RuntimeContext {
    @Override
    public DirectDataflowEngine engine() {
      return engine;
    }

    @Override
    public InputSession inputSession() {
      return input;
    }

    @Override
    public OutputSession outputSession() {
      return output;
    }

    @Override
    public Clock clock() {
      return clock;
    }

    @Override
    public TimerQueue timers() {
      return timers;
    }

    @Override
    public long interfaceRevision() {
      return interfaceRevision;
    }

    @Override
    public void setInterfaceRevision(long revision) {
      interfaceRevision = revision;
    }

    @Override
    public long evaluateAdmitted(Set<String> sources) {
      return OwnerLoop.this.evaluateAdmitted(sources);
    }
  }
}
