/**
 * State that outlives a process: a monitor's {@link io.dataflow.core.snapshot.MonitorSnapshot}
 * (its streams, {@link io.dataflow.core.snapshot.StreamState}, operator state,
 * {@link io.dataflow.core.snapshot.OperatorState}, and the cause of a failed monitor,
 * {@link io.dataflow.core.snapshot.Failure}), a runtime's
 * {@link io.dataflow.core.snapshot.RuntimeCheckpoint} (a snapshot plus the sources'
 * positions), and {@link io.dataflow.core.snapshot.SnapshotException}, which names the file, the
 * byte offset and the reason of every refused input.
 *
 * <p>What lives here besides: the versioned binary format (docs/snapshots.md). Package-private
 * codecs read every format version and write the current one ({@code SnapshotCodec} the header
 * and primitives, {@code SnapshotCodecV2} versions 1 and 2, {@code SnapshotCodecV3} versions 3
 * to 5); {@link io.dataflow.core.snapshot.SnapshotWriter} and
 * {@link io.dataflow.core.snapshot.SnapshotReader} write and read the current version in the
 * format's order, for a monitor that walks its own state without building records.
 *
 * <p>What does not: walking a monitor's nodes and restoring them (module {@code dataflow-monitor},
 * {@code DataflowMonitor.snapshot} and {@code restore}), checkpoint directories and their files
 * ({@code io.dataflow.core.internal.CheckpointStore}; durable runs in {@code dataflow-runs}), and
 * the JSON rendering ({@code io.dataflow.io}).
 */
package io.dataflow.core.snapshot;
