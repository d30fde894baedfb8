package io.dataflow.io;

import io.dataflow.core.InputSession;
import io.dataflow.core.Source;
import io.dataflow.core.Teardown;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The active sources of a runtime and which input streams each one owns. The runtime opens the
 * session, polls its pull-style sources and tells it when a source ended; the run's input is
 * complete when every active source has ended.
 *
 * <p>Reconfiguration changes the sources between ticks through {@link #attach}, {@link #detach}
 * and {@link #bind}, then {@link #commitRevision(boolean)}. A detached source is closed; what it
 * delivered before is evaluated in order.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class InputPipelineSession implements InputSession {
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

    Active(Binding binding) {
      this.binding = binding;
      this.streams = binding.streams();
    }
  }

  private final Map<String, Active> active = new LinkedHashMap<>();
  private SourceContextFactory contexts;
  private long revision;

  /** A session over the given bindings. */
  public InputPipelineSession(List<Binding> bindings) {
    for (Binding b : bindings) {
      if (active.put(b.source().name(), new Active(b)) != null) {
        throw new IllegalArgumentException("duplicate source '" + b.source().name() + "'");
      }
    }
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

  @Override
  public boolean isComplete() {
    if (active.isEmpty()) {
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
      t.step("source:" + a.binding.source().name(), a.binding.source()::close);
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
    binding.source().open(contexts.contextFor(name));
  }

  /** Closes and removes a source; what it delivered before is still evaluated in order. */
  public void detach(String name) throws Exception {
    Active a = active.remove(name);
    if (a == null) {
      throw new IllegalArgumentException("no source '" + name + "'");
    }
    a.binding.source().close();
  }

  /** Changes the streams a source owns. */
  public void bind(String source, Set<String> streams) {
    Active a = active.get(source);
    if (a == null) {
      throw new IllegalArgumentException("no source '" + source + "'");
    }
    a.streams = streams == null ? null : Set.copyOf(streams);
  }

  /** Ends a reconfiguration: the revision advances when the interface changed. */
  public void commitRevision(boolean interfaceChanged) {
    if (interfaceChanged) {
      revision++;
    }
  }
}
