/**
 * The core API of dataflow: values, ticks, rows, time, the runtime handle and its reports.
 *
 * <p>What lives here:
 * <ul>
 *   <li>Values and rows: {@link io.dataflow.core.Value} (with the absence markers NoVal and
 *       Deferred, and the typed accessors {@code asLong}, {@code asDouble}, {@code asString},
 *       {@code asBoolean}, {@code asList}, {@code asMap}, which throw
 *       {@link io.dataflow.core.ValueTypeException} on another type), {@link io.dataflow.core.Kind},
 *       {@link io.dataflow.core.Row}, {@link io.dataflow.core.TickColumns} (a batch of ticks in
 *       columns), {@link io.dataflow.core.RowLayout}, {@link io.dataflow.core.ValueFormat} (the
 *       text rendering).
 *   <li>Input units: {@link io.dataflow.core.Tick}, {@link io.dataflow.core.TickShape},
 *       {@link io.dataflow.core.TickBatch}.
 *   <li>Time: {@link io.dataflow.core.Clock} (with {@link io.dataflow.core.Clock.Timers}, the
 *       view of a timer queue that a clock moving time itself fires),
 *       {@link io.dataflow.core.SystemClock} (the only place that reads real time).
 *   <li>The runtime handle: {@link io.dataflow.core.DataflowRuntime} (offer, submit, control,
 *       stop, cancel, status, reports; every timeout on the runtime's clock),
 *       {@link io.dataflow.core.ExecutionPolicy}, {@link io.dataflow.core.InputWindow},
 *       {@link io.dataflow.core.RuntimeStatus}, {@link io.dataflow.core.RuntimeState},
 *       {@link io.dataflow.core.ExitReport} (with the {@link io.dataflow.core.FatalReason} of a
 *       failed run), {@link io.dataflow.core.MonitorRevision}. A runtime is built by
 *       {@code ReconfigurableDataflowRuntimeBuilder.create()} (module {@code dataflow-reconfig});
 *       there is no builder here.
 *   <li>Retries: {@link io.dataflow.core.Backoff}, {@link io.dataflow.core.Retry} (the one
 *       retry loop), {@link io.dataflow.core.RetryVerdict},
 *       {@link io.dataflow.core.RetryFailedException}, {@link io.dataflow.core.RetryableException}.
 *   <li>Errors: {@link io.dataflow.core.DataflowException} (the unchecked base) and
 *       {@link io.dataflow.core.MonitorException}, {@link io.dataflow.core.IngressException},
 *       {@link io.dataflow.core.ComponentException}, {@link io.dataflow.core.ValueTypeException};
 *       {@link io.dataflow.core.SourceLocation} for positions in messages.
 * </ul>
 *
 * <p>What does not:
 * <ul>
 *   <li>What an integration implements (sources, their context, output writers, monitors,
 *       control requests): {@link io.dataflow.core.spi}.
 *   <li>The machinery behind the handle (the owner loop, its assembly, the engine, the ingress
 *       queue, timers, the failure gate, teardown, retrying writers, the session and
 *       control-handler interfaces the other modules implement): {@code io.dataflow.core.internal},
 *       which the module exports only to the modules that assemble or step a runtime.
 *   <li>The language (module {@code dataflow-monitor}), concrete sources, sinks and codecs
 *       ({@code dataflow-io}), the builder, its options and reconfiguration
 *       ({@code dataflow-reconfig}), test helpers ({@code dataflow-testkit}).
 * </ul>
 */
package io.dataflow.core;
