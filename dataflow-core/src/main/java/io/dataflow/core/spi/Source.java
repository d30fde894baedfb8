package io.dataflow.core.spi;


/**
 * A producer of input ticks: a trace file, a JSON Lines stream, a queue, a transport.
 *
 * <p>A source is either push-style (it starts its own thread in {@link #open} and offers
 * batches through the {@link SourceContext} from there) or pull-style (the owner loop calls
 * {@link #poll} when it has capacity; the source offers a bounded amount and returns). Either
 * way it signals the end with {@link SourceContext#complete()} or a failure with
 * {@link SourceContext#fail(Throwable)}; both travel in order with its data.
 *
 * <p>Thread-safety: {@link #open}, {@link #poll} and {@link #close} are called on the owner
 * thread; the context may be used from any thread.
 */
public interface Source {
  /** The source's name, unique within a runtime ({@code main}, {@code sensors}, ...). */
  String name();

  /** Starts producing into {@code context}. */
  void open(SourceContext context) throws Exception;

  /**
   * Pull-style sources read a bounded amount and offer it; must not block.
   *
   * @return how much work was done (0 when idle)
   */
  default int poll(long nowNanos) {
    return 0;
  }

  /**
   * Resumes after a checkpoint: the first {@code items} items of this source's input (its ticks
   * and control items, in the order it delivers them, as the runtime counted them when it took
   * the checkpoint) were already evaluated, so delivery continues with the next one. Called at
   * most once, before {@link #open}. The default refuses to resume from anywhere but the start:
   * a source that cannot find its place again must not pretend to.
   *
   * @throws UnsupportedOperationException when this source cannot resume
   * @throws Exception when the input has fewer items than that, or cannot be read
   */
  default void resumeAfter(long items) throws Exception {
    if (items != 0) {
      throw new UnsupportedOperationException("source '" + name()
          + "' cannot resume from a checkpoint");
    }
  }

  /** Stops producing and releases resources. Called once. */
  void close() throws Exception;
}
