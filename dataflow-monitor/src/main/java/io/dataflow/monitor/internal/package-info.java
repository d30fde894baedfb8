/**
 * Machinery of the keyed monitor that other modules of this library need but users do not:
 * {@link io.dataflow.monitor.internal.KeyedColumns}, the keyed pipeline's entry that writes a
 * key's outputs into a batch's columns, and {@link io.dataflow.monitor.internal.KeyedFormats},
 * test hooks into the per-key hot and wide formats. Exported only to {@code io.dataflow.pipeline}
 * and {@code io.dataflow.testkit} (module-info); not an API.
 *
 * <p>What does not live here: the keyed monitor itself ({@code io.dataflow.monitor.KeyedMonitor})
 * and its kernel ({@code io.dataflow.monitor.eval}).
 */
package io.dataflow.monitor.internal;
