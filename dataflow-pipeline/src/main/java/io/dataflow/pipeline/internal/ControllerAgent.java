package io.dataflow.pipeline.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.DataflowException;
import io.dataflow.core.ExitReport;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.RuntimeState;
import io.dataflow.core.RuntimeStatus;
import io.dataflow.core.internal.Agent;
import io.dataflow.core.internal.AgentRunner;
import io.dataflow.core.internal.FailureGate;
import io.dataflow.core.internal.OutputCloser;
import io.dataflow.core.internal.Teardown;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.pipeline.PipelineAck;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.PipelineOptions;
import io.dataflow.pipeline.PipelineStatus;
import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.KeyedSink;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationException;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.internal.MonitorReconfigurationPlan;
import io.dataflow.reconfig.internal.ReconfigurationPlanner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * The controller thread: the only user of the {@link PartitionedSource} and the
 * {@link Checkpointer}. It polls, routes records to the drivers' lanes, pauses and resumes
 * lanes at the source, keeps each lane's {@link LaneLedger}, commits acknowledged checkpoints,
 * plans reconfigurations once and sends them to every driver, and runs the shutdown on one
 * deadline: stop polling, {@code Shutdown} to every driver, the barrier, the sink's drain on a
 * closer thread, the final commit, the exit report.
 *
 * <p>Thread-safety: {@link #doWork()} on the controller's thread (or the test's stepping
 * thread); the request methods and {@link #status()} from any thread.
 */
final class ControllerAgent implements Agent, PartitionedSource.Rebalance,
    SynchronousRevocation {
  private final String name;
  private final Clock clock;
  private final PipelineOptions options;
  private final PartitionedSource source;
  private final Checkpointer checkpointer;
  private final KeyedSink sink;
  private final List<DriverAgent> drivers;
  private final FailureGate failures;
  private final Consumer<String> warnings;
  private final Consumer<String> statusLines;
  private final Consumer<PipelineAck> ackListener;
  private IntConsumer wakeDriver = d -> {};

  final MpscUnboundedArrayQueue<DriverEvent> events = new MpscUnboundedArrayQueue<>(256);
  final MpscUnboundedArrayQueue<BatchAck> acks = new MpscUnboundedArrayQueue<>(1024);
  private final MpscUnboundedArrayQueue<Request> requests = new MpscUnboundedArrayQueue<>(16);

  private final Map<Integer, LaneLedger> ledgers = new TreeMap<>();
  /** The same ledgers by partition, for the per-record lookup (no boxing, no tree walk). */
  private LaneLedger[] ledgerOf = new LaneLedger[0];
  /** The same ledgers in lane order, for the loops of every cycle (no iterator, no boxing). */
  private LaneLedger[] inOrder = new LaneLedger[0];
  private final Map<Integer, ArrayDeque<SourceRecord>> stash = new HashMap<>();
  /** Per partition, the records of the current poll collected for the lane's next chunk. */
  private SourceRecord[][] collecting = new SourceRecord[0][];
  private int[] collected = new int[0];
  /** The partitions with collected records, in the order first seen in the poll. */
  private int[] collectedLanes = new int[0];
  private int collectedCount;
  /** Chunks handed to each driver: the position of a control message sent now. */
  private final long[] enqueued;
  /** Records handed to each driver (in chunks); minus what it took, its queue's fill. */
  private final long[] handed;
  /** Drivers handed records since they were last woken (one wake per poll, not per record). */
  private final boolean[] toWake;
  private final Set<Integer> pausedByDriver = new TreeSet<>();
  private final Set<Integer> pausedByQueue = new TreeSet<>();
  private final Set<Integer> sourcePaused = new TreeSet<>();
  /** Whether the pauses wanted may differ from the source's: {@link #applyPauses} has work. */
  private boolean pausesChanged;
  private final Set<Integer> flushedEnded = new TreeSet<>();
  private Map<Integer, LaneCheckpoint> restored = Map.of();
  private final List<Revocation> revocations = new ArrayList<>();
  private final ArrayDeque<Applying> applying = new ArrayDeque<>();
  private final ReconfigurationPlanner planner;
  private DataflowProgram program;
  private MonitorRevision revision = MonitorRevision.INITIAL;

  private volatile long stopDeadline;
  private volatile boolean stopRequested;
  private volatile RuntimeState phase = RuntimeState.NEW;
  private long deadline;
  private Barrier shutdownBarrier;
  private OutputCloser closer;
  private long nextCheckpointAt;
  private long epoch;
  private long lastCommitAt = -1;
  private boolean committedAny;
  private long ackedOutputs;
  private long notAdmitted;
  private ExitReport.DrainResult drain = ExitReport.DrainResult.COMPLETE;
  private long nextStatusAt;
  private PipelineStatus lastReported;
  private volatile PipelineExitReport report;
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final List<String> warningLog = new ArrayList<>();

  /** A reconfiguration request waiting for the controller. */
  private record Request(ReconfigurationRequest request, CompletableFuture<PipelineAck> result) {}

  /** A planned reconfiguration on its way through the drivers. */
  private record Applying(Request request, Barrier barrier, ReconfigurationAck ack) {}

  /** A revocation in progress: stopped lanes waiting for the barrier and their acks. */
  private record Revocation(Set<Integer> lanes, Barrier barrier, long deadline) {}

  ControllerAgent(String name, Clock clock, PipelineOptions options, PartitionedSource source,
      Checkpointer checkpointer, KeyedSink sink, List<DriverAgent> drivers,
      DataflowProgram program, FailureGate failures, Consumer<String> warnings,
      Consumer<String> statusLines, Consumer<PipelineAck> ackListener) {
    this.name = name;
    this.clock = clock;
    this.options = options;
    this.source = source;
    this.checkpointer = checkpointer;
    this.sink = sink;
    this.drivers = drivers;
    this.program = program;
    this.failures = failures;
    this.warnings = warnings;
    this.statusLines = statusLines;
    this.ackListener = ackListener;
    this.enqueued = new long[drivers.size()];
    this.handed = new long[drivers.size()];
    this.toWake = new boolean[drivers.size()];
    // Planning without bindings never opens anything: no I/O factory.
    this.planner = new ReconfigurationPlanner(null, options.typingMode(),
        options.contextTransfer());
    publishStatus(clock.nanoTime());
  }

  void wakeDriversWith(IntConsumer wake) {
    this.wakeDriver = wake;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isDone() {
    return report != null;
  }

  @Override
  public long nextDeadline() {
    long next = phase == RuntimeState.RUNNING ? nextCheckpointAt : Long.MAX_VALUE;
    if (options.statusEvery() != null) {
      next = Math.min(next, nextStatusAt);
    }
    if (phase == RuntimeState.DRAINING || phase == RuntimeState.CLOSING) {
      next = Math.min(next, deadline);
    }
    return next;
  }

  // ------------------------------------------------------------ from any thread

  /** Asks for a graceful stop within {@code timeoutNanos} on the clock. */
  void shutdown(long timeoutNanos) {
    if (!stopRequested) {
      stopDeadline = clock.nanoTime() + timeoutNanos;
      stopRequested = true;
    }
  }

  CompletableFuture<PipelineAck> reconfigure(ReconfigurationRequest request) {
    CompletableFuture<PipelineAck> f = new CompletableFuture<>();
    if (phase.compareTo(RuntimeState.RUNNING) > 0) {
      f.completeExceptionally(new ReconfigurationException("the pipeline is stopping; the"
          + " request was not applied"));
      return f;
    }
    requests.offer(new Request(request, f));
    return f;
  }

  PipelineStatus status() {
    return status(clock.nanoTime());
  }

  PipelineExitReport report() {
    return report;
  }

  /**
   * Waits, in real time and bounded, for the sink's close that the shutdown started on the
   * closer thread (a stepping caller uses this instead of moving the clock past a close that is
   * still running); true when it finished or none was started.
   */
  boolean awaitSinkClosed(java.time.Duration timeout) throws InterruptedException {
    OutputCloser c = closer;
    return c == null || c.await(timeout);
  }

  CountDownLatch terminated() {
    return terminated;
  }

  boolean isReady() {
    return phase == RuntimeState.RUNNING && view.lanes().length > 0 && sink.probe();
  }

  // ------------------------------------------------------------ duty cycle

  private int internalErrors;

  @Override
  public int doWork() {
    if (phase == RuntimeState.TERMINATED) {
      return 0;
    }
    long now = clock.nanoTime();
    try {
      int work = cycle(now);
      internalErrors = 0;
      return work;
    } catch (RuntimeException | Error e) {
      // A bug of the controller: fail the run and still end it, so no caller waits forever;
      // a second failure in a row ends it at once.
      failures.fail("runtime", e);
      if (++internalErrors > 1 && phase != RuntimeState.TERMINATED) {
        terminate(now);
      }
      return 1;
    }
  }

  private int cycle(long now) {
    RuntimeState p = phase;
    int work = 0;
    if (p == RuntimeState.NEW) {
      begin(now);
      work++;
    }
    work += drainEvents();
    work += drainAcks();
    if (phase == RuntimeState.RUNNING && (failures.isSet() || stopRequested)) {
      FailureGate.Failure f = failures.get();
      // After a source failure the records handed over are still evaluated (the output before
      // a bad record stands); after any other failure or a cancel, the drivers stop at once.
      boolean abort = f != null && !f.component().equals("source");
      beginDrain(abort, f != null ? now + options.closeTimeout().toNanos() : stopDeadline);
      work++;
    }
    if (phase == RuntimeState.RUNNING) {
      work += running(now);
    } else if (phase == RuntimeState.DRAINING) {
      work += draining(now);
    } else if (phase == RuntimeState.CLOSING) {
      work += closing(now);
    }
    if (work > 0 || phase == RuntimeState.TERMINATED) {
      publishStatus(now);
    }
    if (options.statusEvery() != null && now - nextStatusAt >= 0
        && phase != RuntimeState.TERMINATED) {
      publishStatus(now);
      PipelineStatus s = status(now);
      statusLines.accept(s.line(lastReported));
      lastReported = s;
      nextStatusAt = now + options.statusEvery().toNanos();
    }
    return work;
  }

  private void begin(long now) {
    phase = RuntimeState.RUNNING;
    nextCheckpointAt = now + options.commitEvery().toNanos();
    nextStatusAt = options.statusEvery() == null ? Long.MAX_VALUE
        : now + options.statusEvery().toNanos();
    publishStatus(now);
    lastReported = status(now);
    try {
      source.open(this);
    } catch (Exception e) {
      failures.fail("startup", e);
    }
  }

  private int running(long now) {
    int work = handleRequests();
    work += retryStash();
    if (!failures.isSet()) {
      try {
        work += source.poll(options.maxPollRecords(), collect);
        handOverCollected();
      } catch (Exception e) {
        wakeHandedOver();
        failures.fail("source", e);
        return work + 1;
      }
    }
    wakeHandedOver();
    applyPauses();
    work += flushEnded();
    if (now - nextCheckpointAt >= 0) {
      epoch++;
      for (int d = 0; d < drivers.size(); d++) {
        send(d, new ThreadControl.CheckpointLanes(epoch, enqueued[d]));
      }
      nextCheckpointAt = now + options.commitEvery().toNanos();
      work++;
    }
    work += commitAll(now);
    work += progressRevocations(now);
    work += completeReconfigurations();
    if (source.isExhausted() && stash.isEmpty() && revocations.isEmpty()
        && phase == RuntimeState.RUNNING) {
      beginDrain(false, now + options.closeTimeout().toNanos());
      work++;
    }
    return work;
  }

  /** {@link #route}, as the source's receiver of runs. */
  private final PartitionedSource.Runs collect = this::route;

  /**
   * Collects a run of one lane's records for the lane's next chunk: the lanes' records of a
   * poll are handed over together, one queue item per lane and poll, not one per record.
   */
  private void route(int p, SourceRecord[] records, int from, int to) {
    LaneLedger ledger = p >= 0 && p < ledgerOf.length ? ledgerOf[p] : null;
    if (ledger == null) {
      failures.fail("source", new DataflowException("the source returned a record of"
          + " partition " + p + " (offset " + records[from].offset() + "), which is not"
          + " assigned"));
      return;
    }
    if (!stash.isEmpty()) {
      ArrayDeque<SourceRecord> waiting = stash.get(p);
      if (waiting != null) {
        for (int i = from; i < to; i++) {
          waiting.addLast(records[i]); // keep the lane's order behind what already waits
        }
        return;
      }
    }
    int n = collected[p];
    int k = to - from;
    SourceRecord[] into = collecting[p];
    if (n == 0) {
      collectedLanes[collectedCount++] = p;
    }
    if (into == null || n + k > into.length) {
      into = collecting[p] = Arrays.copyOf(into == null ? new SourceRecord[0] : into,
          Math.max(64, Math.max(n + k, n * 2)));
    }
    System.arraycopy(records, from, into, n, k);
    collected[p] = n + k;
  }

  /** Hands each lane's collected records to its driver as one chunk. */
  private void handOverCollected() {
    for (int i = 0; i < collectedCount; i++) {
      int p = collectedLanes[i];
      SourceRecord[] from = collecting[p];
      int n = collected[p];
      collected[p] = 0;
      int taken = handOver(ledgerOf[p], from, 0, n);
      if (taken < n) {
        // The driver's queue is full: the rest waits, and the lane stops being read.
        ArrayDeque<SourceRecord> waiting = new ArrayDeque<>(n - taken);
        for (int j = taken; j < n; j++) {
          waiting.addLast(from[j]);
        }
        stash.put(p, waiting);
        pausedByQueue.add(p);
        pausesChanged = true;
      }
      Arrays.fill(from, 0, n, null); // do not keep the records alive
    }
    collectedCount = 0;
  }

  /**
   * Hands {@code records[from, from + n)} of one lane to the lane's driver as one chunk, or as
   * many of them as its queue has room for; returns how many were handed over.
   */
  private int handOver(LaneLedger ledger, SourceRecord[] records, int from, int n) {
    DriverAgent d = drivers.get(ledger.driver);
    long room = options.queueCapacity() - (handed[ledger.driver] - d.takenRecords());
    int k = (int) Math.min(n, Math.max(0, room));
    if (k == 0) {
      return 0;
    }
    SourceRecord[] chunk = Arrays.copyOfRange(records, from, from + k);
    // Admitted before it is handed over: the driver may evaluate it and the sink acknowledge
    // it before this thread runs again.
    ledger.admit(chunk);
    if (!d.data.offer(chunk)) {
      // Cannot happen (a chunk holds at least one record and the queue has a slot per record
      // of room); kept safe all the same.
      ledger.retract(k);
      return 0;
    }
    handed[ledger.driver] += k;
    enqueued[ledger.driver]++;
    toWake[ledger.driver] = true;
    return k;
  }

  private int retryStash() {
    if (stash.isEmpty()) {
      return 0;
    }
    int work = 0;
    for (Iterator<Map.Entry<Integer, ArrayDeque<SourceRecord>>> it = stash.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<Integer, ArrayDeque<SourceRecord>> e = it.next();
      LaneLedger ledger = ledgerOf[e.getKey()];
      ArrayDeque<SourceRecord> waiting = e.getValue();
      SourceRecord[] records = waiting.toArray(new SourceRecord[0]);
      int taken = handOver(ledger, records, 0, records.length);
      for (int j = 0; j < taken; j++) {
        waiting.pollFirst();
      }
      work += taken;
      if (waiting.isEmpty()) {
        it.remove();
        pausedByQueue.remove(e.getKey());
        pausesChanged = true;
      }
    }
    return work;
  }

  /** Makes the source's paused set what the drivers and the full queues ask for. */
  private void applyPauses() {
    if (!pausesChanged) {
      return;
    }
    pausesChanged = false;
    // Sets are made only for what changes: a full queue pauses and resumes lanes often.
    Set<Integer> pause = null;
    Set<Integer> resume = null;
    for (LaneLedger l : inOrder) {
      Integer p = l.lane;
      boolean want = pausedByDriver.contains(p) || pausedByQueue.contains(p);
      boolean paused = sourcePaused.contains(p);
      if (want && !paused) {
        pause = pause == null ? new TreeSet<>() : pause;
        pause.add(p);
      } else if (!want && paused) {
        resume = resume == null ? new TreeSet<>() : resume;
        resume.add(p);
      }
    }
    boolean gone = sourcePaused.removeIf(p -> !ledgers.containsKey(p)); // dropped lanes
    if (pause != null) {
      source.pause(pause);
      sourcePaused.addAll(pause);
    }
    if (resume != null) {
      source.resume(resume);
      sourcePaused.removeAll(resume);
    }
    if (pause != null || resume != null || gone) {
      pausedView = Set.copyOf(sourcePaused);
    }
  }

  private int flushEnded() {
    int work = 0;
    for (LaneLedger l : inOrder) {
      if (!flushedEnded.contains(l.lane) && !stash.containsKey(l.lane)
          && source.isEnded(l.lane)) {
        flushedEnded.add(l.lane);
        send(l.driver, new ThreadControl.FlushNow(Set.of(l.lane), enqueued[l.driver]));
        work++;
      }
    }
    return work;
  }

  /** Wakes every driver that was handed records since its last wake. */
  private void wakeHandedOver() {
    for (int d = 0; d < toWake.length; d++) {
      if (toWake[d]) {
        toWake[d] = false;
        wakeDriver.accept(d);
      }
    }
  }

  private void send(int driver, ThreadControl c) {
    drivers.get(driver).control.offer(c);
    toWake[driver] = false;
    wakeDriver.accept(driver);
  }

  // ------------------------------------------------------------ assignment

  @Override
  public Map<Integer, Long> assigned(Set<Integer> partitions) {
    // The newest commits, read at every assignment: another consumer may have committed a
    // partition since this one last owned it.
    try {
      restored = Map.copyOf(checkpointer.load());
    } catch (Exception e) {
      failures.fail("checkpoint", e);
      restored = Map.of();
    }
    Map<Integer, Long> positions = new TreeMap<>();
    for (int p : new TreeSet<>(partitions)) {
      if (ledgers.containsKey(p)) {
        continue;
      }
      int d = leastLoadedDriver();
      PendingCeilingGate gate = new PendingCeilingGate(p, options.pendingCeiling(),
          options.resumeBelow());
      LaneCheckpoint from = restored.get(p);
      putLedger(new LaneLedger(p, d, gate, from));
      send(d, new ThreadControl.AddLane(p, gate, from, enqueued[d]));
      if (from != null) {
        positions.put(p, from.position());
      }
    }
    return positions;
  }

  private void putLedger(LaneLedger l) {
    ledgers.put(l.lane, l);
    if (l.lane >= ledgerOf.length) {
      int n = Math.max(l.lane + 1, ledgerOf.length * 2);
      ledgerOf = Arrays.copyOf(ledgerOf, n);
      collecting = Arrays.copyOf(collecting, n);
      collected = Arrays.copyOf(collected, n);
      collectedLanes = Arrays.copyOf(collectedLanes, n);
    }
    ledgerOf[l.lane] = l;
    lanesChanged();
  }

  /** After the set of lanes changed: the ordered array and the pauses follow. */
  private void lanesChanged() {
    inOrder = ledgers.values().toArray(new LaneLedger[0]);
    pausesChanged = true;
  }

  private int leastLoadedDriver() {
    int[] load = new int[drivers.size()];
    for (LaneLedger l : ledgers.values()) {
      load[l.driver]++;
    }
    int best = 0;
    for (int d = 1; d < load.length; d++) {
      if (load[d] < load[best]) {
        best = d;
      }
    }
    return best;
  }

  @Override
  public void revoked(Set<Integer> partitions) {
    long now = clock.nanoTime();
    Map<Integer, Set<Integer>> byDriver = new TreeMap<>();
    int lanes = 0;
    for (int p : partitions) {
      LaneLedger l = ledgers.get(p);
      if (l == null) {
        continue;
      }
      ArrayDeque<SourceRecord> dropped = stash.remove(p);
      if (dropped != null) {
        notAdmitted += dropped.size(); // never admitted: the next owner reads them again
      }
      pausedByDriver.remove(p);
      pausedByQueue.remove(p);
      sourcePaused.remove(p);
      pausedView = Set.copyOf(sourcePaused);
      pausesChanged = true;
      byDriver.computeIfAbsent(l.driver, k -> new TreeSet<>()).add(p);
      lanes++;
    }
    if (lanes == 0) {
      return;
    }
    Barrier barrier = new Barrier(lanes);
    long until = now + options.closeTimeout().toNanos();
    byDriver.forEach((d, set) -> send(d,
        new ThreadControl.StopLanes(Set.copyOf(set), barrier, until, enqueued[d])));
    Set<Integer> all = new TreeSet<>();
    byDriver.values().forEach(all::addAll);
    revocations.add(new Revocation(all, barrier, until));
  }

  @Override
  public boolean revokeAndAwait(Set<Integer> partitions) {
    int before = revocations.size();
    revoked(partitions);
    if (revocations.size() == before) {
      return true; // none of them was a lane
    }
    Revocation r = revocations.get(revocations.size() - 1);
    boolean clean = true;
    while (revocations.contains(r)) {
      if (failures.isSet()) {
        return false; // the run ends: nothing more is committed than the shutdown commits
      }
      long now = clock.nanoTime();
      int work = drainEvents() + drainAcks();
      if (now - r.deadline() >= 0) {
        clean = r.barrier().isComplete() && pendingOf(r.lanes()) == 0;
      }
      work += progressRevocations(now);
      if (work == 0) {
        clock.parkUntil(Math.min(r.deadline(), now + AgentRunner.IDLE_PARK_NANOS));
      }
    }
    publishStatus(clock.nanoTime());
    return clean;
  }

  private long pendingOf(Set<Integer> lanes) {
    long pending = 0;
    for (int p : lanes) {
      LaneLedger l = ledgers.get(p);
      pending += l == null ? 0 : l.pending();
    }
    return pending;
  }

  private int progressRevocations(long now) {
    int work = 0;
    for (Iterator<Revocation> it = revocations.iterator(); it.hasNext(); ) {
      Revocation r = it.next();
      long pending = 0;
      for (int p : r.lanes()) {
        pending += ledgers.get(p).pending();
      }
      boolean late = now - r.deadline() >= 0;
      if (!(r.barrier().isComplete() && pending == 0) && !late) {
        continue;
      }
      if (!r.barrier().isComplete() || pending > 0) {
        warn("revoked lanes " + r.lanes() + ": " + pending + " records not acknowledged by the"
            + " deadline; committed only up to the acknowledged prefix, the rest replays");
      }
      commit(now, r.lanes());
      Map<Integer, Set<Integer>> byDriver = new TreeMap<>();
      for (int p : r.lanes()) {
        LaneLedger l = ledgers.remove(p);
        ledgerOf[p] = null;
        lanesChanged();
        flushedEnded.remove(p);
        byDriver.computeIfAbsent(l.driver, k -> new TreeSet<>()).add(p);
      }
      byDriver.forEach((d, set) -> send(d, new ThreadControl.DropLanes(Set.copyOf(set),
          enqueued[d])));
      it.remove();
      work++;
    }
    return work;
  }

  // ------------------------------------------------------------ events and acks

  private int drainEvents() {
    int work = 0;
    for (DriverEvent e; (e = events.relaxedPoll()) != null; work++) {
      if (e instanceof DriverEvent.PauseLanes p) {
        pausedByDriver.addAll(p.lanes());
        pausesChanged = true;
      } else if (e instanceof DriverEvent.ResumeLanes r) {
        pausedByDriver.removeAll(r.lanes());
        pausesChanged = true;
      } else if (e instanceof DriverEvent.Fatal f) {
        failures.fail(f.component(), f.error());
      } else if (e instanceof DriverEvent.LaneSnapshots s) {
        for (LaneCheckpoint c : s.lanes()) {
          LaneLedger l = ledgers.get(c.partition());
          if (l != null) {
            l.offer(c);
          }
        }
      }
    }
    if (work > 0 && phase == RuntimeState.RUNNING) {
      applyPauses();
    }
    return work;
  }

  private int drainAcks() {
    int work = 0;
    for (BatchAck a; (a = acks.relaxedPoll()) != null; work++) {
      if (a.error != null) {
        // Nothing past a failed batch is committed: its records are never acknowledged.
        failures.fail("sink", a.error);
        continue;
      }
      ackedOutputs += a.outputs;
      for (int i = 0; i < a.lanes.length; i++) {
        int p = a.lanes[i];
        LaneLedger l = p < ledgerOf.length ? ledgerOf[p] : null;
        if (l != null) {
          l.acknowledged(a.from[i], a.to[i]);
        }
      }
    }
    return work;
  }

  // ------------------------------------------------------------ commits

  /** Commits the lanes' newest fully acknowledged checkpoints, if any is new. */
  private int commit(long now, Set<Integer> lanes) {
    Map<Integer, LaneCheckpoint> due = null;
    for (int p : lanes) {
      LaneLedger l = ledgers.get(p);
      LaneCheckpoint c = l == null ? null : l.committable();
      if (c != null) {
        due = due == null ? new TreeMap<>() : due;
        due.put(p, c);
      }
    }
    return due == null ? 0 : commit(now, due);
  }

  /** {@link #commit(long, Set)} over every lane, in the cycle: no iterator, no boxing. */
  private int commitAll(long now) {
    Map<Integer, LaneCheckpoint> due = null;
    for (LaneLedger l : inOrder) {
      LaneCheckpoint c = l.committable();
      if (c != null) {
        due = due == null ? new TreeMap<>() : due;
        due.put(l.lane, c);
      }
    }
    return due == null ? 0 : commit(now, due);
  }

  private int commit(long now, Map<Integer, LaneCheckpoint> due) {
    try {
      checkpointer.commit(due);
    } catch (Exception e) {
      failures.fail("checkpoint", e);
      return 1;
    }
    due.forEach((p, c) -> ledgers.get(p).committed(c));
    lastCommitAt = now;
    committedAny = true;
    return 1;
  }

  // ------------------------------------------------------------ reconfiguration

  private int handleRequests() {
    int work = 0;
    for (Request r; (r = requests.relaxedPoll()) != null; work++) {
      ReconfigurationPlanner.MonitorOnlyPlan plan;
      try {
        plan = planner.planMonitorOnly(r.request(), program);
      } catch (RuntimeException e) {
        // Refused before anything changed: the pipeline keeps running on its program.
        warn("reconfiguration request from " + r.request().origin() + " refused: "
            + e.getMessage());
        r.result().completeExceptionally(e);
        continue;
      }
      MonitorReconfigurationPlan m = plan.monitor();
      TransferMapping mapping = m instanceof MonitorReconfigurationPlan.Transfer t ? t.mapping()
          : m instanceof MonitorReconfigurationPlan.RetainExact
              ? TransferMapping.plan(program, plan.candidate()) : null;
      Barrier barrier = new Barrier(drivers.size());
      for (int d = 0; d < drivers.size(); d++) {
        send(d, new ThreadControl.Reconfigure(plan.candidate(), mapping, barrier, enqueued[d]));
      }
      program = plan.candidate();
      revision = revision.nextRoot();
      applying.addLast(new Applying(r, barrier, new ReconfigurationAck(true, revision, 0,
          plan.monitorChanged(), false, m.kind(), -1, null, r.request().origin())));
    }
    return work;
  }

  private int completeReconfigurations() {
    int work = 0;
    while (!applying.isEmpty() && applying.peekFirst().barrier().isComplete()) {
      Applying a = applying.pollFirst();
      if (failures.isSet()) {
        a.request().result().completeExceptionally(new ReconfigurationException("the pipeline"
            + " failed while the request was applied (lanes " + a.barrier().lanes()
            + " were moved): " + failures.get().reason()));
      } else {
        PipelineAck ack = new PipelineAck(a.ack(), a.barrier().lanes(), a.barrier().keys());
        ackListener.accept(ack);
        a.request().result().complete(ack);
      }
      work++;
    }
    return work;
  }

  // ------------------------------------------------------------ shutdown

  private void beginDrain(boolean abort, long until) {
    phase = RuntimeState.DRAINING;
    deadline = until;
    for (Request r; (r = requests.relaxedPoll()) != null; ) {
      r.result().completeExceptionally(new ReconfigurationException("the pipeline stopped"
          + " before the request was applied"));
    }
    for (ArrayDeque<SourceRecord> waiting : stash.values()) {
      notAdmitted += waiting.size();
    }
    stash.clear();
    shutdownBarrier = new Barrier(drivers.size());
    for (int d = 0; d < drivers.size(); d++) {
      send(d, new ThreadControl.Shutdown(shutdownBarrier, until, abort, enqueued[d]));
    }
  }

  private int draining(long now) {
    int work = completeReconfigurations();
    boolean late = now - deadline >= 0;
    if (!shutdownBarrier.isComplete() && !late) {
      return work;
    }
    if (!shutdownBarrier.isComplete()) {
      warn((shutdownBarrier.parties() - shutdownBarrier.arrived()) + " of "
          + shutdownBarrier.parties() + " drivers did not stop by the deadline");
    }
    // The drivers flushed: the sink drains what it was sent, on a thread of its own.
    closer = new OutputCloser(name + "-sink-closer", sink::close);
    phase = RuntimeState.CLOSING;
    return work + 1;
  }

  private int closing(long now) {
    boolean closed = closer.isDone();
    long pending = 0;
    for (LaneLedger l : ledgers.values()) {
      pending += l.pending();
    }
    if (!closed && !(now - deadline >= 0)) {
      return 0;
    }
    if (closed && closer.failure() != null) {
      failures.fail("sink", closer.failure());
    }
    drainAcks();
    pending = 0;
    for (LaneLedger l : ledgers.values()) {
      pending += l.pending();
    }
    long sent = 0;
    for (DriverAgent d : drivers) {
      sent += d.status().ticksOut();
    }
    long abandoned = Math.max(0, sent - ackedOutputs);
    if (pending > 0 || abandoned > 0 || !closed) {
      String detail = (closed ? "" : "the sink did not close by the deadline; ") + abandoned
          + " outputs were not acknowledged (" + pending + " records stay uncommitted and"
          + " replay after a restart)";
      drain = new ExitReport.DrainResult(false, abandoned, detail);
      warn(detail);
      failures.fail("sink", new DataflowException(detail));
    }
    commit(now, ledgers.keySet()); // the final commit: never past unacknowledged data
    terminate(now);
    return 1;
  }

  private void terminate(long now) {
    Exception closeError = new Teardown().step("close source", source::close).run();
    if (closeError != null) {
      failures.fail("source", closeError);
    }
    while (!applying.isEmpty()) {
      Applying a = applying.pollFirst();
      a.request().result().completeExceptionally(new ReconfigurationException("the pipeline"
          + " ended before every driver applied the request (applied on lanes "
          + a.barrier().lanes() + ")"));
    }
    if (notAdmitted > 0) {
      warn(notAdmitted + " records read from the source were not handed to a driver (the run"
          + " ended first); they are not committed and replay after a restart");
    }
    FailureGate.Failure f = failures.get();
    ExitReport.Outcome outcome = f == null ? ExitReport.Outcome.COMPLETED
        : f.cancel() ? ExitReport.Outcome.CANCELLED : ExitReport.Outcome.FAILED;
    long ticksIn = 0;
    long ticksOut = 0;
    for (DriverAgent d : drivers) {
      ticksIn += d.status().ticksIn();
      ticksOut += d.status().ticksOut();
    }
    ExitReport.CheckpointOutcome kept = failures.checkpointOutcome(
        committedAny || !restored.isEmpty(), why -> {
          boolean aside = checkpointer.setAside(why);
          if (aside) {
            warn("the checkpoint was set aside: " + failures.get().fatal().kind()
                + " does not keep it resumable");
          }
          return aside;
        }, this::warn);
    List<String> w;
    synchronized (warningLog) {
      w = List.copyOf(warningLog);
    }
    ExitReport run = new ExitReport(outcome, f == null ? null : f.component(),
        f == null ? null : f.reason(), f == null ? null : f.cause(), ticksIn, ticksOut, drain,
        revision, 0, w, f == null ? null : f.fatal(), ticksIn, kept,
        failures.pastPointOfNoReturn());
    Map<Integer, Long> acked = new TreeMap<>();
    Map<Integer, Long> committed = new TreeMap<>();
    for (LaneLedger l : ledgers.values()) {
      acked.put(l.lane, l.ackedPosition());
      committed.put(l.lane, l.committedPosition());
    }
    phase = RuntimeState.TERMINATED;
    publishStatus(now);
    report = new PipelineExitReport(run, acked, committed);
    terminated.countDown();
  }

  void warn(String message) {
    synchronized (warningLog) {
      warningLog.add(message);
    }
    warnings.accept(message);
  }

  // ------------------------------------------------------------ status

  /**
   * What the controller owns of the status, published after its cycles: plain arrays (per lane,
   * in lane order), so a busy cycle's publication costs a few copies; the maps are built by
   * whoever reads the status.
   */
  private record View(RuntimeState phase, Set<Integer> paused, int[] lanes, long[] pending,
      long[] acked, long[] committed, int stashed, long[] handed, String lastError,
      MonitorRevision revision, long lastCommitAt) {}

  private volatile View view;
  /** The paused lanes as last published (rebuilt only when they changed). */
  private Set<Integer> pausedView = Set.of();

  private void publishStatus(long now) {
    LaneLedger[] lanes = inOrder;
    int n = lanes.length;
    int[] ids = new int[n];
    long[] pending = new long[n];
    long[] acked = new long[n];
    long[] committed = new long[n];
    for (int i = 0; i < n; i++) {
      LaneLedger l = lanes[i];
      ids[i] = l.lane;
      pending[i] = l.pending();
      acked[i] = l.ackedPosition();
      committed[i] = l.committedPosition();
    }
    int stashed = 0;
    if (!stash.isEmpty()) {
      for (ArrayDeque<SourceRecord> waiting : stash.values()) {
        stashed += waiting.size();
      }
    }
    FailureGate.Failure f = failures.get();
    view = new View(phase, pausedView, ids, pending, acked, committed, stashed,
        handed.clone(), f == null ? null : f.reason(), revision, lastCommitAt);
  }

  private static Map<Integer, Long> byLane(int[] lanes, long[] values) {
    Map<Integer, Long> m = new TreeMap<>();
    for (int i = 0; i < lanes.length; i++) {
      m.put(lanes[i], values[i]);
    }
    return m;
  }

  /**
   * The status now: the controller's last published view and each driver's published counters,
   * each read once.
   */
  PipelineStatus status(long now) {
    View v = view;
    List<List<Integer>> lanesByDriver = new ArrayList<>();
    long ticksIn = 0;
    long ticksOut = 0;
    long keys = 0;
    long expired = 0;
    int queued = v.stashed();
    for (int i = 0; i < drivers.size(); i++) {
      DriverAgent d = drivers.get(i);
      DriverAgent.DriverStatus s = d.status(); // one read per driver
      lanesByDriver.add(s.lanes());
      ticksIn += s.ticksIn();
      ticksOut += s.ticksOut();
      keys += s.keys();
      expired += s.expired();
      // Records in the driver's queue: handed over (as last published) but not yet taken.
      queued += (int) Math.max(0, v.handed()[i] - d.takenRecords());
    }
    RuntimeStatus run = new RuntimeStatus(v.phase(), ticksIn, ticksOut, queued, 0,
        v.lastError(), v.revision(), 0, now, v.lastCommitAt());
    return new PipelineStatus(run, lanesByDriver, v.paused(), byLane(v.lanes(), v.pending()),
        keys, expired, byLane(v.lanes(), v.acked()), byLane(v.lanes(), v.committed()));
  }
}
