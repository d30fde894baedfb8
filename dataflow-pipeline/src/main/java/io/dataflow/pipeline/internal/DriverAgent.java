package io.dataflow.pipeline.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.DataflowException;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Tick;
import io.dataflow.core.TickShape;
import io.dataflow.core.internal.Agent;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import io.dataflow.monitor.internal.KeyedColumns;
import io.dataflow.pipeline.PipelineOptions;
import io.dataflow.pipeline.spi.KeyedOutputs;
import io.dataflow.pipeline.spi.KeyedSink;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import io.dataflow.pipeline.spi.SourceRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.SpscArrayQueue;

/**
 * A driver thread: owns its lanes and the keyed monitors of their keys, evaluates the records
 * the controller hands over (in each lane's order), batches the outputs to the sink, asks for
 * pauses and resumes, and obeys the controller's {@link ThreadControl} at their positions.
 *
 * <p>Thread-safety: {@link #doWork()} on the driver's thread only (or the test's stepping
 * thread); the queues and {@link #status()} are safe from any thread.
 */
final class DriverAgent implements Agent {
  /**
   * Records evaluated per duty cycle (whole chunks: the cycle ends after the chunk that reaches
   * it), so control messages are seen promptly.
   */
  private static final int RECORDS_PER_CYCLE = 1024;

  /** What a driver publishes for the status, read once by the controller. */
  record DriverStatus(List<Integer> lanes, long keys, long ticksIn, long ticksOut,
      long expired) {}

  private static final class Lane {
    final int id;
    final PendingCeilingGate gate;
    KeyedMonitor keyed;
    /** Records of this lane taken so far (the controller's admission sequence). */
    long seq;
    /** The first sequence not yet covered by a batch handed to the sink. */
    long batchFrom;
    /** The offset after the last record evaluated; -1 before the first. */
    long nextOffset;
    boolean stopped;

    Lane(int id, PendingCeilingGate gate, long nextOffset) {
      this.id = id;
      this.gate = gate;
      this.nextOffset = nextOffset;
    }
  }

  final int index;
  private final String name;
  private final Clock clock;
  private final PipelineOptions options;
  private final KeyedSink sink;
  final MpscUnboundedArrayQueue<ThreadControl> control = new MpscUnboundedArrayQueue<>(64);
  /**
   * Records from the controller in chunks: each item is a run of one lane's records, in the
   * lane's order. Bounded in records by the controller ({@link #takenRecords}).
   */
  final SpscArrayQueue<SourceRecord[]> data;
  /** Records taken from {@link #data} so far; the controller's measure of the queue's fill. */
  private volatile long recordsTaken;
  private final Consumer<DriverEvent> events;
  private final Consumer<BatchAck> acks;
  private final Consumer<String> warnings;
  private DataflowProgram program;
  private final Map<Integer, Lane> lanes = new TreeMap<>();
  /** The same lanes by partition, for the per-record lookup (no boxing, no tree walk). */
  private Lane[] byPartition = new Lane[0];
  /** The lanes' ids as published (null: rebuilt at the next publication). */
  private List<Integer> laneIds;
  private final ArrayDeque<ThreadControl> waiting = new ArrayDeque<>();
  private final IdentityHashMap<TickShape, int[]> slots = new IdentityHashMap<>();
  private final Set<String> unknownInputs = new HashSet<>();
  private Row in;
  private Row out;
  private long consumed;
  private boolean done;
  private boolean failed;
  /** The outputs of the batch being collected, in columns (no object per output). */
  private KeyedOutputs.Builder outputs;
  /** Columns of acknowledged batches, handed back from the acknowledging threads for reuse. */
  private final MpscArrayQueue<KeyedOutputs> spare = new MpscArrayQueue<>(8);
  /** The last tick shape seen and its slots (records of one source share a few shapes). */
  private TickShape lastShape;
  private int[] lastSlots;
  /** Whether {@link #lastSlots} writes every input slot (the input row needs no clearing). */
  private boolean lastCovers;
  private final List<Lane> touched = new ArrayList<>();
  private long lastDataAt;
  private long nextExpiry;
  private long ticksIn;
  private long ticksOut;
  private long expired;
  private volatile DriverStatus status = new DriverStatus(List.of(), 0, 0, 0, 0);

  DriverAgent(int index, String name, Clock clock, PipelineOptions options, KeyedSink sink,
      DataflowProgram program, Consumer<DriverEvent> events, Consumer<BatchAck> acks,
      Consumer<String> warnings) {
    this.index = index;
    this.name = name;
    this.clock = clock;
    this.options = options;
    this.sink = sink;
    this.data = new SpscArrayQueue<>(options.queueCapacity());
    this.events = events;
    this.acks = acks;
    this.warnings = warnings;
    this.nextExpiry = options.keyTtl() == null ? Long.MAX_VALUE
        : clock.nanoTime() + Math.max(1, options.keyTtl().toNanos() / 4);
    useProgram(program);
  }

  private void useProgram(DataflowProgram p) {
    program = p;
    in = p.inputs().newRow();
    out = p.outputs().newRow();
    outputs = new KeyedOutputs.Builder(p.outputs(), options.batchSize());
    slots.clear();
    lastShape = null;
    lastSlots = null;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isDone() {
    return done;
  }

  DriverStatus status() {
    return status;
  }

  /** Records taken from the data queue so far (any thread). */
  long takenRecords() {
    return recordsTaken;
  }

  @Override
  public long nextDeadline() {
    long next = Long.MAX_VALUE;
    if (!touched.isEmpty()) {
      next = lastDataAt + options.idleFlush().toNanos();
    }
    if (options.keyTtl() != null && !lanes.isEmpty()) {
      next = Math.min(next, nextExpiry);
    }
    return next;
  }

  @Override
  public int doWork() {
    if (done) {
      return 0;
    }
    long now = clock.nanoTime();
    int work = takeControls();
    work += applyDue();
    int evaluated = 0;
    while (evaluated < RECORDS_PER_CYCLE && !failed && !done) {
      SourceRecord[] chunk = data.relaxedPeek();
      if (chunk == null) {
        break;
      }
      // The controller sends a control before it hands over the records that follow it, so
      // every control due before this chunk is visible now: apply those first.
      work += takeControls();
      work += applyDue();
      if (failed || done) {
        break;
      }
      data.relaxedPoll();
      consumed++;
      recordsTaken += chunk.length; // one writer: this thread
      evaluated += chunk.length;
      evaluate(chunk, now);
    }
    work += evaluated;
    if (done) {
      return work + 1;
    }
    if (evaluated > 0) {
      lastDataAt = now;
    } else if (!touched.isEmpty() && now - lastDataAt >= options.idleFlush().toNanos()) {
      flush();
      work++;
    }
    work += backpressure();
    if (options.keyTtl() != null && now - nextExpiry >= 0) {
      long ttl = options.keyTtl().toNanos();
      for (Lane l : lanes.values()) {
        int n = l.keyed.expireIdle(now - ttl);
        expired += n;
        work += n;
      }
      nextExpiry = now + Math.max(1, ttl / 4);
    }
    if (work > 0) {
      publish();
    }
    return work;
  }

  private void publish() {
    long keys = 0;
    for (Lane l : lanes.values()) {
      keys += l.keyed.size();
    }
    if (laneIds == null) {
      laneIds = List.copyOf(lanes.keySet());
    }
    status = new DriverStatus(laneIds, keys, ticksIn, ticksOut, expired);
  }

  private int takeControls() {
    int n = 0;
    for (ThreadControl c; (c = control.relaxedPoll()) != null; n++) {
      waiting.addLast(c);
    }
    return n;
  }

  /** Applies the control messages whose position was reached, in order. */
  private int applyDue() {
    int work = 0;
    while (!done && !waiting.isEmpty() && waiting.peekFirst().position() <= consumed) {
      apply(waiting.pollFirst());
      work++;
    }
    return work;
  }

  private void apply(ThreadControl c) {
    if (c instanceof ThreadControl.AddLane a) {
      addLane(a);
    } else if (c instanceof ThreadControl.StopLanes s) {
      stopLanes(s);
    } else if (c instanceof ThreadControl.FlushNow) {
      flush();
    } else if (c instanceof ThreadControl.DropLanes d) {
      for (int lane : d.lanes()) {
        lanes.remove(lane);
        laneIds = null;
        if (lane < byPartition.length) {
          byPartition[lane] = null;
        }
      }
    } else if (c instanceof ThreadControl.CheckpointLanes k) {
      List<LaneCheckpoint> taken = new ArrayList<>();
      for (Lane l : lanes.values()) {
        if (!l.stopped) {
          checkpoint(l, taken);
        }
      }
      events.accept(new DriverEvent.LaneSnapshots(k.epoch(), taken));
    } else if (c instanceof ThreadControl.Shutdown s) {
      shutdown(s);
    } else if (c instanceof ThreadControl.Reconfigure r) {
      reconfigure(r);
    } else {
      throw new AssertionError(c);
    }
  }

  private void stopLanes(ThreadControl.StopLanes s) {
    flush();
    List<LaneCheckpoint> taken = new ArrayList<>();
    for (int id : s.lanes()) {
      Lane l = lanes.get(id);
      if (l != null && !l.stopped) {
        l.stopped = true;
        checkpoint(l, taken);
      }
    }
    events.accept(new DriverEvent.LaneSnapshots(-1, taken));
    for (int id : s.lanes()) {
      Lane l = lanes.get(id);
      s.barrier().arrive(List.of(id), l == null ? 0 : l.keyed.size());
    }
  }

  private void addLane(ThreadControl.AddLane a) {
    Lane l = new Lane(a.lane(), a.gate(), a.restored() == null ? -1 : a.restored().position());
    l.keyed = KeyedMonitor.create(program);
    lanes.put(a.lane(), l);
    laneIds = null;
    if (a.lane() >= byPartition.length) {
      byPartition = java.util.Arrays.copyOf(byPartition, Math.max(a.lane() + 1,
          byPartition.length * 2));
    }
    byPartition[a.lane()] = l;
    if (a.restored() != null) {
      try {
        l.keyed = LaneState.restore(a.restored(), program, options.typingMode(),
            clock.nanoTime());
      } catch (RuntimeException e) {
        fail("checkpoint", e);
      }
    }
  }

  private void checkpoint(Lane l, List<LaneCheckpoint> into) {
    if (l.nextOffset < 0 || failed) {
      return; // nothing evaluated yet: nothing to commit
    }
    try {
      into.add(new LaneCheckpoint(l.id, l.nextOffset, program.source(),
          LaneState.encode(l.keyed)));
    } catch (RuntimeException e) {
      fail("checkpoint", new DataflowException("lane " + l.id + ": the keys' state cannot be"
          + " checkpointed: " + DataflowException.describe(e), e));
    }
  }

  private void shutdown(ThreadControl.Shutdown s) {
    flush();
    List<LaneCheckpoint> taken = new ArrayList<>();
    if (!s.abort() && !failed) {
      for (Lane l : lanes.values()) {
        if (!l.stopped) {
          checkpoint(l, taken);
        }
      }
    }
    events.accept(new DriverEvent.LaneSnapshots(-1, taken));
    long left = 0;
    for (SourceRecord[] chunk; (chunk = data.relaxedPoll()) != null; ) {
      left += chunk.length;
    }
    recordsTaken += left;
    if (left > 0) {
      warnings.accept(name + ": " + left + " records handed over were not evaluated (the run"
          + " ended first); they are not committed and replay after a restart");
    }
    long keys = 0;
    for (Lane l : lanes.values()) {
      keys += l.keyed.size();
    }
    publish();
    done = true;
    s.barrier().arrive(List.copyOf(lanes.keySet()), keys);
  }

  private void reconfigure(ThreadControl.Reconfigure r) {
    flush();
    List<Integer> applied = new ArrayList<>();
    long keys = 0;
    if (!failed) {
      for (Lane l : lanes.values()) {
        try {
          l.keyed.reconfigure(r.target(), r.mapping());
        } catch (RuntimeException e) {
          fail("cutover", new DataflowException("the reconfiguration failed part-way on " + name
              + ": applied to lanes " + applied + ", failed on lane " + l.id + ": "
              + DataflowException.describe(e), e));
          break;
        }
        applied.add(l.id);
        keys += l.keyed.size();
      }
    }
    if (!failed) {
      useProgram(r.target());
    }
    r.barrier().arrive(applied, keys);
  }

  /**
   * Evaluates a chunk: records of one lane, in order. The lane is found and checked once; the
   * batch is handed to the sink whenever it is full, in the middle of a chunk too.
   */
  private void evaluate(SourceRecord[] chunk, long now) {
    int p = chunk[0].partition();
    Lane l = p < byPartition.length ? byPartition[p] : null;
    if (l == null || l.stopped) {
      fail("runtime", new IllegalStateException(name + " got a record of lane " + p
          + (l == null ? ", which it does not own" : " after it stopped")));
      return;
    }
    KeyedMonitor keyed = l.keyed;
    int batchSize = options.batchSize();
    Row in = this.in;
    Row out = this.out;
    int width = out.width();
    for (SourceRecord r : chunk) {
      Tick tick = r.tick();
      TickShape shape = tick.shape();
      int[] map;
      if (shape == lastShape) {
        map = lastSlots;
      } else {
        map = slots.get(shape);
        if (map == null) {
          map = slotsOf(shape);
        }
        lastShape = shape;
        lastSlots = map;
        lastCovers = covers(map, in.width());
      }
      if (!lastCovers) {
        in.clear(); // else every slot is written below
      }
      for (int i = 0; i < map.length; i++) {
        if (map[i] >= 0) {
          in.set(map[i], tick.value(i));
        }
      }
      // The outputs of a tick evaluated in place go straight into the batch's columns, at the
      // place claimed here (counted only if some output is present); any other tick's go
      // into the output row, copied as before.
      KeyedOutputs.Builder outputs = this.outputs;
      int at = outputs.claim();
      byte[] kinds = outputs.kindColumn();
      long result;
      try {
        result = KeyedColumns.evaluate(keyed, r.key(), now, in, out, kinds,
            outputs.bitsColumn(), at);
      } catch (RuntimeException e) {
        fail("monitor", new DataflowException("key " + r.key() + " (partition " + p
            + ", offset " + r.offset() + "): " + DataflowException.describe(e), e));
        return;
      }
      ticksIn++;
      if (l.seq == l.batchFrom) {
        touched.add(l);
      }
      l.seq++;
      l.nextOffset = r.offset() + 1;
      boolean inColumns = result >= 0;
      for (int i = 0; i < width; i++) {
        if ((inColumns ? kinds[at + i] : out.kind(i)) != io.dataflow.core.Kind.NOVAL) {
          if (inColumns) {
            outputs.addClaimed(r.key(), result, p, r.offset());
          } else {
            outputs.add(r.key(), ~result, p, r.offset(), out);
          }
          ticksOut++;
          if (outputs.size() >= batchSize) {
            flush();
          }
          break;
        }
      }
    }
  }

  /** Whether {@code map} writes every one of the {@code width} input slots. */
  private static boolean covers(int[] map, int width) {
    int written = 0;
    for (int slot : map) {
      written += slot >= 0 ? 1 : 0; // a shape's names differ: no slot is written twice
    }
    return written == width;
  }

  private int[] slotsOf(TickShape shape) {
    RowLayout layout = program.inputs();
    int[] map = new int[shape.size()];
    for (int i = 0; i < map.length; i++) {
      map[i] = layout.slotOf(shape.name(i));
      if (map[i] < 0 && unknownInputs.add(shape.name(i))) {
        warnings.accept(name + ": records carry '" + shape.name(i) + "', which is not an input"
            + " of the specification; its values are ignored");
      }
    }
    slots.put(shape, map);
    return map;
  }

  /** Hands the batch to the sink (or, without outputs, acknowledges its records at once). */
  private void flush() {
    if (touched.isEmpty()) {
      return;
    }
    int n = touched.size();
    int[] ids = new int[n];
    long[] from = new long[n];
    long[] to = new long[n];
    for (int i = 0; i < n; i++) {
      Lane l = touched.get(i);
      ids[i] = l.id;
      from[i] = l.batchFrom;
      to[i] = l.seq;
      l.batchFrom = l.seq;
    }
    touched.clear();
    KeyedOutputs batch = outputs.build();
    KeyedOutputs reusable = spare.relaxedPoll();
    if (reusable != null) {
      outputs.reuse(reusable);
    }
    BatchAck ack = new BatchAck(ids, from, to, batch.size(), acks, warnings,
        batch.isEmpty() ? null : () -> spare.offer(batch));
    if (batch.isEmpty()) {
      ack.succeeded(); // records without output count once evaluated
      return;
    }
    try {
      sink.send(batch, ack);
    } catch (RuntimeException e) {
      ack.failed(e);
    }
  }

  /** Asks for pauses at the ceiling and resumes below the watermark. */
  private int backpressure() {
    Set<Integer> pause = null;
    Set<Integer> resume = null;
    for (Lane l : lanes.values()) {
      PendingCeilingGate g = l.gate;
      long pending = g.pending();
      if (!g.pauseRequested && pending >= g.ceiling) {
        g.pauseRequested = true;
        pause = add(pause, l.id);
      } else if (g.pauseRequested && pending < g.resumeBelow) {
        g.pauseRequested = false;
        resume = add(resume, l.id);
      }
    }
    if (pause != null) {
      events.accept(new DriverEvent.PauseLanes(pause));
    }
    if (resume != null) {
      events.accept(new DriverEvent.ResumeLanes(resume));
    }
    return (pause == null ? 0 : 1) + (resume == null ? 0 : 1);
  }

  private static Set<Integer> add(Set<Integer> set, int lane) {
    Set<Integer> s = set == null ? new java.util.TreeSet<>() : set;
    s.add(lane);
    return s;
  }

  private void fail(String component, Throwable e) {
    if (!failed) {
      failed = true;
      events.accept(new DriverEvent.Fatal(name, component, e));
    }
  }
}
