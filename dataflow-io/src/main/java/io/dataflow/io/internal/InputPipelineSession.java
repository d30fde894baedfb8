package io.dataflow.io.internal;

import io.dataflow.core.internal.InputSession;
import io.dataflow.core.spi.Source;
import io.dataflow.core.internal.Teardown;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The active sources of a runtime and which input streams each one owns. The runtime opens the
 * session, polls its pull-style sources and tells it when a source ended; the run's input is
 * complete when every active source has ended ({@link #isComplete()}).
 *
 * <p>Reconfiguration changes the sources between ticks through {@link #attach}, {@link #detach}
 * and {@link #bind}, then {@link #commitRevision(boolean)}. A removed source is first
 * {@link #stop stopped} (closed, binding kept) so the runtime can evaluate what it had delivered
 * under the old configuration, then detached.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class InputPipelineSession implements InputSession {
  private final TickShapes shapes = new TickShapes();
  /**
   * One source and the input streams it owns.
   *
   * @param source the source
   * @param streams the input streams it owns, or null for "whatever it delivers"
   */
  public record Binding(Source source, Set<String> streams) {
    /** Validates the binding. */
    public Binding {
      Objects.requireNonNull(source, "source");
      streams = streams == null ? null : Set.copyOf(streams);
    }

    /** A source owning whatever it delivers. */
    public static Binding of(Source source) {
      return new Binding(source, null);
    }
  }

  private static final class Active {
    final Binding binding;
    Set<String> streams;
    boolean ended;
    boolean stopped;

    Active(Binding binding) {
      this.binding = binding;
      this.streams = binding.streams();
    }
  }

  private final Map<String, Active> active = new LinkedHashMap<>();
  private final Set<String> retired = new java.util.HashSet<>();
  private final Map<String, String> owner = new java.util.HashMap<>();
  private final java.util.Set<String> warned = new java.util.HashSet<>();
  private final java.util.function.Consumer<String> warnings;
  private SourceContextFactory contexts;
  private long revision;
  private boolean hadSources;

  /** A session over the given bindings; ownership conflicts are logged. */
  public InputPipelineSession(List<Binding> bindings) {
    this(bindings, m -> org.slf4j.LoggerFactory.getLogger(InputPipelineSession.class).warn(m));
  }

  /** A session over the given bindings; ownership conflicts go to {@code warnings}. */
  public InputPipelineSession(List<Binding> bindings,
      java.util.function.Consumer<String> warnings) {
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    for (Binding b : bindings) {
      if (active.put(b.source().name(), new Active(b)) != null) {
        throw new IllegalArgumentException("duplicate source '" + b.source().name() + "'");
      }
    }
    hadSources = !active.isEmpty();
    rebuildOwners();
  }

  private void rebuildOwners() {
    owner.clear();
    active.forEach((name, a) -> {
      if (a.streams != null) {
        a.streams.forEach(s -> owner.put(s, name));
      }
    });
  }

  /**
   * Keeps a value only from the source that owns its stream: a stream bound to a source is
   * accepted from that source alone; an unbound stream from any source without a binding.
   * Everything else is dropped with one warning per source and stream.
   */
  @Override
  public io.dataflow.core.Tick admit(String source, io.dataflow.core.Tick tick) {
    if (owner.isEmpty()) {
      return tick; // no explicit ownership: every source delivers whatever it has
    }
    Active a = active.get(source);
    Set<String> mine = a == null ? null : a.streams;
    Map<String, io.dataflow.core.Value> kept = null;
    for (int i = 0; i < tick.size(); i++) {
      String name = tick.shape().name(i);
      String o = owner.get(name);
      boolean ok = o == null ? mine == null : o.equals(source);
      if (!ok) {
        if (kept == null) {
          kept = new LinkedHashMap<>();
          for (int j = 0; j < i; j++) {
            kept.put(tick.shape().name(j), tick.value(j));
          }
        }
        if (warned.add(source + "/" + name)) {
          warnings.accept("source '" + source + "' delivered '" + name + "', which "
              + (o == null ? "it does not own" : "source '" + o + "' owns") + "; ignored");
        }
      } else if (kept != null) {
        kept.put(name, tick.value(i));
      }
    }
    return kept == null ? tick : shapes.tick(kept);
  }

  @Override
  public boolean admitsAll(String source) {
    return owner.isEmpty(); // as admit: no explicit ownership, every tick passes unchanged
  }

  @Override
  public void open(SourceContextFactory factory) throws Exception {
    this.contexts = factory;
    for (Active a : active.values()) {
      a.binding.source().open(factory.contextFor(a.binding.source().name()));
    }
  }

  @Override
  public int poll(long nowNanos) {
    int work = 0;
    for (Active a : active.values()) {
      if (!a.ended) {
        work += a.binding.source().poll(nowNanos);
      }
    }
    return work;
  }

  @Override
  public void onEndOfInput(String source) {
    Active a = active.get(source);
    if (a != null) {
      a.ended = true;
    }
  }

  /**
   * True when every source has ended. A session that never had a source never ends by itself
   * (the runtime's own handle is its input); one whose sources a reconfiguration detached all
   * counts as complete, since nothing can deliver to it any more.
   */
  @Override
  public boolean isComplete() {
    if (!hadSources) {
      return false;
    }
    for (Active a : active.values()) {
      if (!a.ended) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Set<String> sources() {
    return new LinkedHashSet<>(active.keySet());
  }

  @Override
  public long revision() {
    return revision;
  }

  @Override
  public void close() throws Exception {
    Teardown t = new Teardown();
    for (Active a : active.values()) {
      if (!a.stopped) {
        t.step("source:" + a.binding.source().name(), a.binding.source()::close);
      }
    }
    Exception e = t.run();
    if (e != null) {
      throw e;
    }
  }

  // ---------------------------------------------------------------- reconfiguration

  /** Each active source and the streams it owns (null = whatever it delivers). */
  public Map<String, Set<String>> owners() {
    Map<String, Set<String>> m = new LinkedHashMap<>();
    active.forEach((k, v) -> m.put(k, v.streams));
    return m;
  }

  /** Opens and adds a source. */
  public void attach(Binding binding) throws Exception {
    String name = binding.source().name();
    if (active.containsKey(name)) {
      throw new IllegalArgumentException("source '" + name + "' already exists");
    }
    Active a = new Active(binding);
    active.put(name, a);
    retired.remove(name); // a source of that name exists again
    hadSources = true;
    rebuildOwners();
    binding.source().open(contexts.contextFor(name));
  }

  /**
   * Closes a source so it delivers nothing more, but keeps its binding: what it delivered before
   * is still admitted under its ownership until {@link #detach} removes it. A reconfiguration
   * stops the sources it removes, evaluates what they had delivered, then detaches them.
   */
  public void stop(String name) throws Exception {
    Active a = active.get(name);
    if (a == null) {
      throw new IllegalArgumentException("no source '" + name + "'");
    }
    if (!a.stopped) {
      a.stopped = true;
      a.ended = true; // not polled any more
      a.binding.source().close();
    }
  }

  /** Closes (unless {@link #stop stopped}) and removes a source. */
  public void detach(String name) throws Exception {
    Active a = active.remove(name);
    if (a == null) {
      throw new IllegalArgumentException("no source '" + name + "'");
    }
    retired.add(name);
    rebuildOwners();
    if (!a.stopped) {
      a.stopped = true;
      a.binding.source().close();
    }
  }

  @Override
  public boolean isRetired(String source) {
    return retired.contains(source);
  }

  /** Changes the streams a source owns. */
  public void bind(String source, Set<String> streams) {
    Active a = active.get(source);
    if (a == null) {
      throw new IllegalArgumentException("no source '" + source + "'");
    }
    a.streams = streams == null ? null : Set.copyOf(streams);
    rebuildOwners();
  }

  /** Ends a reconfiguration: the revision advances when the interface changed. */
  public void commitRevision(boolean interfaceChanged) {
    if (interfaceChanged) {
      revision++;
    }
  }
}
