/**
 * The machinery behind {@link io.dataflow.core.DataflowRuntime}: the owner loop and its parts.
 * Not an API: the module descriptor exports this package only to the modules that assemble or
 * step a runtime ({@code dataflow-io}, {@code dataflow-reconfig}, {@code dataflow-testkit}),
 * no public signature of an API package names a type of it ({@code ArchitectureTest}), and it
 * may change in any release. Build a runtime with {@code ReconfigurableDataflowRuntimeBuilder}
 * and use it through the {@code DataflowRuntime} handle instead.
 *
 * <p>What lives here (docs/architecture/owner-loop.md, failure-and-shutdown.md, time.md):
 * <ul>
 *   <li>The owner loop: {@link io.dataflow.core.internal.OwnerLoop}, the one implementation of
 *       the handle (ingress, duty cycle {@code doWork()}, lifecycle, shutdown), assembled by
 *       {@link io.dataflow.core.internal.DataflowRuntimeBuilder}; the bounded MPSC ingress queue
 *       ({@code Ingress}, which also decides when a producer unparks the owner), the owner's
 *       idle strategy ({@code OwnerIdle}: spin, yield, park), the input window in front of the
 *       engine ({@code InputWindowBuffer}) and the closer thread of the output
 *       ({@code OutputCloser}), all package-private.
 *   <li>Evaluation: {@link io.dataflow.core.internal.DirectDataflowEngine} (reusable rows,
 *       slots cached per tick shape, flushing by the execution policy).
 *   <li>Time: {@link io.dataflow.core.internal.TimerQueue}, the owner's timers (window
 *       flushes, retry backoff, deadlines), seen by a clock as a
 *       {@link io.dataflow.core.Clock.Timers}.
 *   <li>Lifecycle plumbing, one copy for every runtime:
 *       {@link io.dataflow.core.internal.FailureGate} (the first fatal error wins),
 *       {@link io.dataflow.core.internal.Teardown} (every step runs, errors joined),
 *       {@link io.dataflow.core.internal.RetryingOutputWriter} (a destination's retries, through
 *       {@link io.dataflow.core.Retry}).
 *   <li>The seams the sibling modules implement: {@link io.dataflow.core.internal.InputSession}
 *       and {@link io.dataflow.core.internal.OutputSession} (the pipeline sessions of
 *       {@code dataflow-io}), {@link io.dataflow.core.internal.ControlHandler} (the
 *       reconfiguration controller of {@code dataflow-reconfig}) and the
 *       {@link io.dataflow.core.internal.RuntimeContext} it works through.
 * </ul>
 *
 * <p>What does not: the handle, the value types it takes and its reports
 * ({@link io.dataflow.core}); the interfaces an integration implements
 * ({@link io.dataflow.core.spi}); the concrete sessions ({@code io.dataflow.io.internal}) and
 * the controller ({@code io.dataflow.reconfig.internal}).
 */
package io.dataflow.core.internal;
