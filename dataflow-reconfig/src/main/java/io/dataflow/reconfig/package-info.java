/**
 * Live reconfiguration: replace the running specification and its I/O bindings while ticks
 * keep flowing (docs/reconfiguration.md for users, docs/architecture/reconfiguration.md for the
 * rules the code keeps).
 *
 * <ul>
 *   <li>Entry point: {@link io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder}.
 *   <li>Requests: {@link io.dataflow.reconfig.ReconfigurationRequest},
 *       {@link io.dataflow.reconfig.RequestDecoder} (JSON5), {@link io.dataflow.reconfig.Bindings},
 *       {@link io.dataflow.reconfig.IoSpec}, {@link io.dataflow.reconfig.IoFactory}.
 *   <li>Plans (resource-free): {@link io.dataflow.reconfig.internal.RuntimeReconfigurationPlan} assembling
 *       {@link io.dataflow.reconfig.internal.InputPipelineReconfigurationPlan},
 *       {@link io.dataflow.reconfig.internal.OutputPipelineReconfigurationPlan} and
 *       {@link io.dataflow.reconfig.internal.MonitorReconfigurationPlan}; made by the package-private
 *       {@code ReconfigurationPlanner}.
 *   <li>Application (fixed order, no rollback): the package-private
 *       {@code ReconfigurationController}, observable step by step through
 *       {@link io.dataflow.reconfig.CutoverObserver}.
 *   <li>Acknowledgements: {@link io.dataflow.reconfig.ReconfigurationAck},
 *       {@link io.dataflow.reconfig.ReconfigurationAckSink}, {@link io.dataflow.reconfig.AckQueue}.
 * </ul>
 *
 * <p>What does not: state transfer itself ({@code DataflowMonitor.transfer} in
 * {@code dataflow-monitor}), the owner loop ({@code dataflow-core}).
 */
package io.dataflow.reconfig;

