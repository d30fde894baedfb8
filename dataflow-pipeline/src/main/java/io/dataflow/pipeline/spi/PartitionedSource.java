package io.dataflow.pipeline.spi;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A source of keyed records split into partitions (Kafka topic partitions, shards of a file).
 * The pipeline's controller thread is the only caller of every method: an implementation needs
 * no locking unless it has threads of its own.
 *
 * <p>Positions follow Kafka's convention: a partition's position is the offset of the next
 * record to read, so a commit of {@code n} means every record before {@code n} is done.
 */
public interface PartitionedSource extends AutoCloseable {
  /** Told when partitions are assigned to or revoked from this consumer. */
  interface Rebalance {
    /**
     * These partitions are now read; each becomes a lane.
     *
     * @return the committed position of each of them that has one: the source reads such a
     *     partition from there, the others from their beginning
     */
    Map<Integer, Long> assigned(Set<Integer> partitions);

    /**
     * These partitions are taken away: the pipeline stops their lanes, waits for their outputs'
     * acknowledgements and commits, then forgets them. The source returns no more of their
     * records.
     */
    void revoked(Set<Integer> partitions);
  }

  /**
   * Starts reading. Assignments are reported to {@code rebalance}, here or during a later
   * {@link #poll}; each report answers with the committed positions to read from.
   */
  void open(Rebalance rebalance) throws Exception;

  /**
   * Up to {@code max} records of assigned partitions that are not paused, without blocking for
   * long (an empty list when none is ready). Records of one partition come in offset order.
   */
  List<SourceRecord> poll(int max) throws Exception;

  /** Receives a poll's records a run at a time: consecutive records of one partition. */
  @FunctionalInterface
  interface Runs {
    /**
     * Records {@code records[from, to)}, all of {@code partition}, in offset order. The receiver
     * reads them during the call only (it copies what it keeps), so the source may reuse the
     * array afterwards.
     */
    void run(int partition, SourceRecord[] records, int from, int to);
  }

  /**
   * {@link #poll(int)} handed over in runs of one partition's records: what the controller
   * calls. The default polls the list and cuts it where the partition changes (reading every
   * record's partition); a source that holds its records by partition overrides it to hand
   * over whole runs without the controller reading each record.
   *
   * @return the number of records handed over
   */
  default int poll(int max, Runs into) throws Exception {
    List<SourceRecord> polled = poll(max);
    int n = polled.size();
    if (n == 0) {
      return 0;
    }
    SourceRecord[] records = polled.toArray(new SourceRecord[0]);
    int start = 0;
    int partition = records[0].partition();
    for (int i = 1; i < n; i++) {
      int p = records[i].partition();
      if (p != partition) {
        into.run(partition, records, start, i);
        start = i;
        partition = p;
      }
    }
    into.run(partition, records, start, n);
    return n;
  }

  /** Stops returning records of these partitions until {@link #resume}; nothing is skipped. */
  void pause(Set<Integer> partitions);

  /** Returns records of these partitions again, from where they were paused. */
  void resume(Set<Integer> partitions);

  /**
   * True when {@code partition} is bounded and every record of it was returned: its lane
   * flushes at once instead of waiting for the idle flush.
   */
  boolean isEnded(int partition);

  /** True when the source is bounded and every partition ended: the run then completes. */
  boolean isExhausted();

  /** Releases the source. */
  @Override
  void close() throws Exception;
}
