package io.dataflow.core.internal;

import io.dataflow.core.Tick;
import io.dataflow.core.spi.SourceContext;

/**
 * The active set of sources of a runtime (module {@code dataflow-io} provides
 * {@code InputPipelineSession}). The runtime opens it once, polls it for pull-style sources,
 * tells it when a source ended, and closes it at shutdown.
 *
 * <p>Thread-safety: owner thread only.
 */
public interface InputSession {
  /** Opens every source; {@code contexts} makes the context of each source by name. */
  void open(SourceContextFactory contexts) throws Exception;

  /** Polls the pull-style sources; returns the work done. */
  int poll(long nowNanos);

  /** Records that a source delivered its last item. */
  void onEndOfInput(String source);

  /**
   * True when every source has ended. A session that never had a source never ends by itself;
   * its input ends when the runtime's handle declares it.
   */
  boolean isComplete();

  /** The names of the active sources. */
  java.util.Set<String> sources();

  /** The input interface revision (advances when a reconfiguration changes the bindings). */
  long revision();

  /**
   * Filters a tick a source delivered by stream ownership: a stream owned by another source is
   * dropped (with a warning). The default admits everything.
   */
  default Tick admit(String source, Tick tick) {
    return tick;
  }

  /**
   * True when {@link #admit} would return every tick of {@code source} unchanged (no stream
   * ownership to enforce), so the runtime may evaluate its columnar batches without making
   * ticks of them. Consistent with the default {@code admit}: true.
   */
  default boolean admitsAll(String source) {
    return true;
  }

  /**
   * True for a source a reconfiguration removed: what it still delivers (a push source's thread
   * may be mid-offer when it is closed) belongs to no configuration, so the runtime drops it
   * with a warning instead of evaluating it under the new one.
   */
  default boolean isRetired(String source) {
    return false;
  }

  /** Closes every source; errors are joined. */
  void close() throws Exception;

  /** Creates the context of a named source. */
  interface SourceContextFactory {
    /** The context for the source with this name. */
    SourceContext contextFor(String sourceName);
  }
}
