package io.dataflow.core.snapshot;

import io.dataflow.core.DataflowException;

/**
 * A snapshot that cannot be read, written or restored: truncated or corrupted input (checksum),
 * a future format version, a foreign file, structural nonsense, a state that does not fit the
 * program it is restored into, or a value that cannot be persisted (a function held in state).
 *
 * <p>When the problem is in bytes, {@link #offset()} is the byte offset where reading stopped
 * and the message names it (and the file, when read from a path).
 */
public class SnapshotException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final long offset;

  /** A problem that is not at a byte offset (capture, restore). */
  public SnapshotException(String message) {
    super(message);
    this.offset = -1;
  }

  /** A problem at a byte offset of the input. */
  public SnapshotException(long offset, String reason) {
    super("at byte offset " + offset + ": " + reason);
    this.offset = offset;
  }

  /** The same problem, reported with the file it was read from. */
  public SnapshotException(String file, SnapshotException e) {
    super(file + ": " + e.getMessage(), e);
    this.offset = e.offset;
  }

  /** The byte offset of the problem, or -1 when it is not about bytes. */
  public long offset() {
    return offset;
  }
}
