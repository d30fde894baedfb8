/**
 * The core of dataflow: values, ticks, rows, time, the owner loop and lifecycle plumbing.
 *
 * <p>What lives here:
 * <ul>
 *   <li>Values and rows: {@link io.dataflow.core.Value} (with the absence markers NoVal and
 *       Deferred), {@link io.dataflow.core.Kind}, {@link io.dataflow.core.Row},
 *       {@link io.dataflow.core.TickColumns} (a batch of ticks in columns),
 *       {@link io.dataflow.core.RowLayout}, {@link io.dataflow.core.ValueFormat} (the text
 *       rendering).
 *   <li>Input units: {@link io.dataflow.core.Tick}, {@link io.dataflow.core.TickShape},
 *       {@link io.dataflow.core.TickBatch}.
 *   <li>Time: {@link io.dataflow.core.Clock}, {@link io.dataflow.core.SystemClock} (the only
 *       place that reads real time), {@link io.dataflow.core.internal.TimerQueue}.
 *   <li>The owner loop: {@link io.dataflow.core.DataflowRuntime} (ingress queue, duty cycle,
 *       shutdown), {@link io.dataflow.core.internal.DirectDataflowEngine} (reusable rows, cached
 *       slots), {@link io.dataflow.core.ExecutionPolicy}, {@link io.dataflow.core.InputWindow}.
 *   <li>Service interfaces: {@link io.dataflow.core.spi.Monitor}, {@link io.dataflow.core.spi.Source},
 *       {@link io.dataflow.core.spi.OutputWriter}, {@link io.dataflow.core.internal.InputSession},
 *       {@link io.dataflow.core.internal.OutputSession}, {@link io.dataflow.core.internal.ControlHandler}.
 *   <li>Lifecycle plumbing, one copy for every runtime: {@link io.dataflow.core.internal.FailureGate}
 *       (first fatal error wins), {@link io.dataflow.core.internal.Teardown} (every step runs, errors
 *       joined), {@link io.dataflow.core.Backoff} and
 *       {@link io.dataflow.core.internal.RetryingOutputWriter}, {@link io.dataflow.core.RuntimeStatus},
 *       {@link io.dataflow.core.ExitReport}.
 * </ul>
 *
 * <p>What does not: the language (module {@code dataflow-monitor}), concrete sources, sinks,
 * codecs and the pipeline sessions ({@code dataflow-io}), reconfiguration
 * ({@code dataflow-reconfig}), test helpers ({@code dataflow-testkit}).
 */
package io.dataflow.core;
