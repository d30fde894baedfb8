/**
 * The machinery of the I/O module: what a runtime needs to own its sources and destinations,
 * and the codecs the public sources and sinks share. Not an API: the module descriptor exports
 * this package only to {@code dataflow-reconfig} (which assembles runtimes) and
 * {@code dataflow-testkit}, and it may change in any release.
 *
 * <ul>
 *   <li>Sessions: {@link io.dataflow.io.internal.InputPipelineSession} (the active sources and
 *       the input streams each owns) and {@link io.dataflow.io.internal.OutputPipelineSession}
 *       (the active destinations and the routing of output streams, taps, retries); they
 *       implement core's {@code InputSession} and {@code OutputSession}, and reconfiguration
 *       changes them between ticks. {@link io.dataflow.io.internal.ColumnWriter}: a writer
 *       that takes a batch's output columns whole (the byte writers).
 *   <li>Codecs: {@link io.dataflow.io.internal.JsonValues} (the JSON encoding of values,
 *       docs/io.md#value-encoding), {@link io.dataflow.io.internal.Json5} (the one lenient JSON
 *       reader; its mapper stays private), {@link io.dataflow.io.internal.TickShapes} (one tick
 *       shape per distinct list of names).
 *   <li>Reading bytes: {@link io.dataflow.io.internal.ByteLines} (lines of a UTF-8 stream,
 *       split without decoding), {@link io.dataflow.io.internal.NameTable} (names seen, as
 *       strings, without allocating), {@link io.dataflow.io.internal.PendingTick} (a tick's
 *       assignments, unboxed, while it is read) and
 *       {@link io.dataflow.io.internal.TickColumnsBuilder} (columnar batches of such ticks).
 *   <li>Control items as read: {@link io.dataflow.io.internal.EncodedControlRequest}, the JSON5
 *       text of an {@code @reconfigure} or {@code {"$reconfigure": ...}} line, decoded by the
 *       control handler.
 * </ul>
 *
 * <p>What does not: the sources, sinks and readers a user creates ({@link io.dataflow.io}); the
 * owner loop ({@code io.dataflow.core.internal}); decoding and planning a request
 * ({@code dataflow-reconfig}).
 */
package io.dataflow.io.internal;
