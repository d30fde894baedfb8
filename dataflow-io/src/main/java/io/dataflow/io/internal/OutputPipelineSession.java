package io.dataflow.io.internal;

import io.dataflow.core.Backoff;
import io.dataflow.core.Clock;
import io.dataflow.core.ComponentException;
import io.dataflow.core.internal.OutputSession;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.internal.RetryingOutputWriter;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.TickColumns;
import io.dataflow.core.internal.Teardown;
import io.dataflow.core.internal.TimerQueue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import io.dataflow.io.AsyncOutputWriter;

/**
 * The active destinations of a runtime and the routing of output streams to them. A
 * destination receives the streams bound to it, or, unbound, every stream no destination names
 * (every stream when none does); its rows are then projections of the full row, cached per
 * layout. Each destination's first error is sticky and
 * terminal for the run; a destination may declare {@link Backoff retries} for
 * {@link io.dataflow.core.RetryableException}s.
 *
 * <p>Reconfiguration changes the destinations between ticks through {@link #addDestination},
 * {@link #removeDestination} and {@link #bind}, then {@link #commitRevision(boolean)}.
 *
 * <p>Thread-safety: owner thread only, except {@link #abandon()}.
 */
public final class OutputPipelineSession implements OutputSession {
  /**
   * One destination.
   *
   * @param name unique name ({@code stdout}, {@code alerts}, ...)
   * @param writer where its rows go
   * @param streams the output streams routed to it, or null for every output stream that no
   *     destination names explicitly (every stream when none does)
   * @param retry the backoff for retryable errors, or null for none
   * @param tap true for a destination that receives every output stream whatever the routing
   *     (a collector, metrics, debugging): bindings never move streams away from it
   */
  public record Destination(String name, OutputWriter writer, Set<String> streams,
      Backoff retry, boolean tap) {
    /** Validates the destination. */
    public Destination {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(writer, "writer");
      streams = streams == null ? null : Set.copyOf(streams);
      if (tap && streams != null) {
        throw new IllegalArgumentException("a tap receives every stream; it names none");
      }
    }

    /** A destination that is not a tap. */
    public Destination(String name, OutputWriter writer, Set<String> streams, Backoff retry) {
      this(name, writer, streams, retry, false);
    }

    /** A tap: every output stream, whatever the other destinations own, without retries. */
    public static Destination tap(String name, OutputWriter writer) {
      return new Destination(name, writer, null, null, true);
    }

    /** A destination receiving every output stream no other names, without retries. */
    public static Destination all(String name, OutputWriter writer) {
      return new Destination(name, writer, null, null);
    }
  }

  private final class Active {
    final Destination spec;
    OutputWriter writer;
    Set<String> streams;
    IOException failure;
    final Map<RowLayout, Projection> projections = new IdentityHashMap<>();

    Active(Destination spec) {
      this.spec = spec;
      this.writer = spec.writer();
      this.streams = spec.streams();
    }

    void feed(long tick, RowLayout layout, Row row) throws IOException {
      if (streams == null && (!anyClaimed || spec.tap())) {
        writer.feed(tick, layout, row);
        return;
      }
      Projection p = projections.get(layout);
      if (p == null) {
        Set<String> mine = streams;
        p = new Projection(layout, mine != null ? mine::contains : n -> !claimed.contains(n));
        projections.put(layout, p);
      }
      if (p.layout.width() > 0) {
        p.fill(row);
        writer.feed(tick, p.layout, p.row);
      }
    }
  }

  /** The part of a row that one destination receives. */
  private static final class Projection {
    final int[] from;
    final RowLayout layout;
    final Row row;

    Projection(RowLayout full, java.util.function.Predicate<String> routed) {
      List<String> names = new ArrayList<>();
      List<Integer> idx = new ArrayList<>();
      for (int i = 0; i < full.width(); i++) {
        if (routed.test(full.name(i))) {
          names.add(full.name(i));
          idx.add(i);
        }
      }
      this.from = idx.stream().mapToInt(Integer::intValue).toArray();
      this.layout = RowLayout.of(names);
      this.row = layout.newRow();
    }

    void fill(Row full) {
      for (int i = 0; i < from.length; i++) {
        row.setRaw(i, full.kind(from[i]), full.bits(from[i]), full.ref(from[i]));
      }
    }
  }

  private final Map<String, Active> active = new LinkedHashMap<>();
  /** The destinations in order, as an array for the per-tick loop (rebuilt on change). */
  private Active[] destinations = new Active[0];
  /** The streams some destination names explicitly; the others go to the unbound ones. */
  private Set<String> claimed = Set.of();
  private boolean anyClaimed;
  private Clock clock;
  private TimerQueue timers;
  private long revision;
  /** Rows of the last columnar feed that every destination took. */
  private int fed;

  /** A session over the given destinations. */
  public OutputPipelineSession(List<Destination> destinations) {
    for (Destination d : destinations) {
      if (active.put(d.name(), new Active(d)) != null) {
        throw new IllegalArgumentException("duplicate destination '" + d.name() + "'");
      }
    }
    routingChanged();
  }

  /** Recomputes the explicitly routed streams; projections are rebuilt on the next row. */
  private void routingChanged() {
    destinations = active.values().toArray(new Active[0]);
    Set<String> c = new java.util.HashSet<>();
    for (Active a : destinations) {
      if (a.streams != null) {
        c.addAll(a.streams);
      }
      a.projections.clear();
    }
    claimed = Set.copyOf(c);
    anyClaimed = !c.isEmpty();
  }

  @Override
  public void open(Clock clock, TimerQueue timers) {
    this.clock = clock;
    this.timers = timers;
    for (Active a : active.values()) {
      wrapRetry(a);
    }
  }

  private void wrapRetry(Active a) {
    if (a.spec.retry() != null && clock != null) {
      a.writer = new RetryingOutputWriter("sink:" + a.spec.name(), a.spec.writer(),
          a.spec.retry(), clock, timers, 65536);
    }
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) {
    for (Active a : destinations) {
      if (a.failure != null) {
        throw new ComponentException("sink:" + a.spec.name(), a.failure);
      }
      try {
        a.feed(tick, layout, row);
      } catch (IOException | RuntimeException e) {
        throw failed(a, e);
      }
    }
  }

  /**
   * A batch's outputs. With one destination that receives every stream and takes columns
   * ({@link ColumnWriter}), the batch goes to it in one call; otherwise a row at a time through
   * {@link #feed(long, RowLayout, Row)}, each tick copied into {@code row}.
   */
  @Override
  public void feed(long firstTick, RowLayout layout, TickColumns columns, int from, int to,
      Row row) {
    fed = 0;
    Active[] ds = destinations;
    if (ds.length == 1) {
      Active a = ds[0];
      if (a.writer instanceof ColumnWriter w && a.streams == null
          && (!anyClaimed || a.spec.tap())) {
        if (a.failure != null) {
          throw new ComponentException("sink:" + a.spec.name(), a.failure);
        }
        try {
          w.feed(firstTick, layout, columns, from, to);
        } catch (IOException | RuntimeException e) {
          fed = w.written();
          throw failed(a, e);
        }
        fed = to - from;
        return;
      }
    }
    for (int t = from; t < to; t++) {
      columns.copyTo(t, row);
      feed(firstTick + (t - from), layout, row);
      fed++;
    }
  }

  @Override
  public int fed() {
    return fed;
  }

  @Override
  public void flush() {
    for (Active a : destinations) {
      guard(a, a.writer::flush);
    }
  }

  @Override
  public void beforeClose() {
    for (Active a : active.values()) {
      if (a.writer instanceof RetryingOutputWriter r) {
        r.stopTimers();
      }
    }
  }

  /** Flushes and closes every destination; errors are joined. */
  @Override
  public void close() throws IOException {
    Teardown t = new Teardown();
    for (Active a : active.values()) {
      // A destination that failed is still closed to release it; its failure was reported.
      t.step("sink:" + a.spec.name(), a.writer::close);
    }
    Exception e = t.run();
    if (e != null) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public long abandon() {
    long rows = 0;
    for (Active a : active.values()) {
      // The destination's own writer: a retry wrapper around it must not hide it.
      if (a.spec.writer() instanceof AsyncOutputWriter async) {
        rows += async.abandon();
      }
    }
    return rows;
  }

  private interface Io {
    void run() throws IOException;
  }

  private void guard(Active a, Io op) {
    if (a.failure != null) {
      throw new ComponentException("sink:" + a.spec.name(), a.failure);
    }
    try {
      op.run();
    } catch (IOException | RuntimeException e) {
      throw failed(a, e);
    }
  }

  /** Records a destination's first error (sticky) and names it. */
  private ComponentException failed(Active a, Exception e) {
    a.failure = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    return new ComponentException("sink:" + a.spec.name(), a.failure);
  }

  // ---------------------------------------------------------------- reconfiguration

  /** The destinations and the streams bound to each (null = every stream no other names). */
  public Map<String, Set<String>> routing() {
    Map<String, Set<String>> m = new LinkedHashMap<>();
    active.forEach((k, v) -> {
      if (!v.spec.tap()) {
        m.put(k, v.streams);
      }
    });
    return m;
  }

  /**
   * The taps' names. A tap belongs to the application that attached it: a reconfiguration
   * request neither sees it in {@link #routing()} nor removes, replaces or binds it.
   */
  public Set<String> taps() {
    Set<String> taps = new java.util.TreeSet<>();
    active.forEach((k, v) -> {
      if (v.spec.tap()) {
        taps.add(k);
      }
    });
    return taps;
  }

  /** Flushes one destination (before its interface changes). */
  public void flush(String destination) {
    Active a = require(destination);
    guard(a, a.writer::flush);
  }

  /** Adds and opens a destination. */
  public void addDestination(Destination d) {
    if (active.containsKey(d.name())) {
      throw new IllegalArgumentException("destination '" + d.name() + "' already exists");
    }
    Active a = new Active(d);
    wrapRetry(a);
    active.put(d.name(), a);
    routingChanged();
  }

  /** Flushes, closes and removes a destination. */
  public void removeDestination(String name) throws IOException {
    Active a = require(name);
    guard(a, a.writer::flush);
    active.remove(name);
    routingChanged();
    a.writer.close();
  }

  /** Routes {@code streams} (null = every stream no destination names) to a destination. */
  public void bind(String destination, Set<String> streams) {
    Active a = require(destination);
    if (a.spec.tap()) {
      return; // a tap keeps receiving every stream
    }
    a.streams = streams == null ? null : Set.copyOf(streams);
    routingChanged();
  }

  /** Ends a reconfiguration: the revision advances when the interface changed. */
  public void commitRevision(boolean interfaceChanged) {
    if (interfaceChanged) {
      revision++;
    }
  }

  private Active require(String name) {
    Active a = active.get(name);
    if (a == null) {
      throw new IllegalArgumentException("no destination '" + name + "'");
    }
    return a;
  }

  @Override
  public long revision() {
    return revision;
  }
}
