/**
 * How a reconfiguration request is planned and applied. Not an API: the module descriptor
 * exports this package, qualified, only to {@code dataflow-testkit}; {@code ArchitectureTest}
 * allows its use only inside {@code dataflow-reconfig}, and no public signature of
 * {@code io.dataflow.reconfig} names a type of it. It may change in any release. Users
 * configure it through {@code ReconfigurableDataflowRuntimeBuilder} and watch it through
 * {@code CutoverObserver} (docs/architecture/reconfiguration.md).
 *
 * <ul>
 *   <li>Planning, resource-free: {@link io.dataflow.reconfig.internal.ReconfigurationPlanner}
 *       (validate, compile the replacement, plan input, output and monitor, assemble).
 *   <li>Plans: {@link io.dataflow.reconfig.internal.RuntimeReconfigurationPlan} assembling
 *       {@link io.dataflow.reconfig.internal.InputPipelineReconfigurationPlan},
 *       {@link io.dataflow.reconfig.internal.OutputPipelineReconfigurationPlan} and
 *       {@link io.dataflow.reconfig.internal.MonitorReconfigurationPlan} (RetainExact, Transfer
 *       or InstallCold; the acknowledgement reports which as a
 *       {@code ReconfigurationAck.Plan}).
 *   <li>Application, in a fixed order with no rollback:
 *       {@link io.dataflow.reconfig.internal.ReconfigurationController}, the runtime's control
 *       handler, which calls the {@code CutoverObserver} before each step and delivers the
 *       acknowledgement last; a step that fails ends the run with a
 *       {@link io.dataflow.reconfig.internal.CutoverFailedException} naming the steps that stay
 *       applied.
 * </ul>
 *
 * <p>What does not: the builder, the options, requests, acknowledgements and the observer
 * ({@link io.dataflow.reconfig}); the pipeline sessions the controller rebinds
 * ({@code io.dataflow.io.internal}); the owner loop it runs on ({@code io.dataflow.core.internal}).
 */
package io.dataflow.reconfig.internal;
