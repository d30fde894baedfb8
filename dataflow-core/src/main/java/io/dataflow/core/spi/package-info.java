/**
 * What an integration implements to plug into a runtime: the service interfaces the runtime
 * calls. A user who only builds and feeds runtimes does not need this package; one who writes
 * a source, a sink or a monitor does.
 *
 * <p>What lives here:
 * <ul>
 *   <li>Input: {@link io.dataflow.core.spi.Source} (push-style on a thread of its own, or
 *       pull-style polled by the owner loop) and {@link io.dataflow.core.spi.SourceContext}, how
 *       a source delivers ticks, control items, its end and its failure into the ingress queue.
 *   <li>Output: {@link io.dataflow.core.spi.OutputWriter} ({@code feed}, {@code flush},
 *       {@code close}, on the owner thread).
 *   <li>Evaluation: {@link io.dataflow.core.spi.Monitor} and
 *       {@link io.dataflow.core.spi.RevisionedMonitor} ({@code DataflowMonitor} in module
 *       {@code dataflow-monitor} implements both).
 *   <li>Control: {@link io.dataflow.core.spi.ControlRequest}, an item that travels in the
 *       ingress queue in order with the data (a reconfiguration request is the main kind).
 * </ul>
 *
 * <p>What does not: the types these interfaces exchange (values, ticks, rows, the clock) and
 * the runtime handle, in {@link io.dataflow.core}; ready-made sources and sinks, in
 * {@code io.dataflow.io}; the interfaces only the library's own modules implement (the input
 * and output sessions, the control handler), in {@code io.dataflow.core.internal}.
 */
package io.dataflow.core.spi;
