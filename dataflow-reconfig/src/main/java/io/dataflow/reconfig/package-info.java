/**
 * The entry point for every runtime, and live reconfiguration: replace the running
 * specification and its I/O bindings while ticks keep flowing (docs/runtime.md and
 * docs/reconfiguration.md for users, docs/architecture/reconfiguration.md for the rules the
 * code keeps).
 *
 * <ul>
 *   <li>Building a runtime: {@link io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder}
 *       ({@code create()}, the one way to build a {@link io.dataflow.core.DataflowRuntime}) and
 *       {@link io.dataflow.reconfig.RuntimeOptions} (how it runs: name, flush policy, input
 *       window, ingress capacity, close timeout, typing, context transfer, reject policy,
 *       monitor options; shared with the testkit's harness).
 *   <li>Requests: {@link io.dataflow.reconfig.ReconfigurationRequest},
 *       {@link io.dataflow.reconfig.RequestDecoder} (JSON5), {@link io.dataflow.reconfig.Bindings},
 *       {@link io.dataflow.reconfig.IoSpec}, {@link io.dataflow.reconfig.IoFactory} and the
 *       built-in types of {@link io.dataflow.reconfig.StandardIoFactory}.
 *   <li>Outcomes: {@link io.dataflow.reconfig.ReconfigurationAck} (revisions, change flags,
 *       the {@link io.dataflow.reconfig.ReconfigurationAck.Plan}),
 *       {@link io.dataflow.reconfig.ReconfigurationAckSink}, {@link io.dataflow.reconfig.AckQueue},
 *       {@link io.dataflow.reconfig.RejectPolicy}; the errors
 *       {@link io.dataflow.reconfig.RequestException} (a request that cannot be read) and
 *       {@link io.dataflow.reconfig.ReconfigurationException} (one that fails to plan).
 *   <li>Watching the cutover: {@link io.dataflow.reconfig.CutoverObserver}, called before each
 *       {@link io.dataflow.reconfig.CutoverStep}.
 * </ul>
 *
 * <p>What does not: planning, the ordered cutover and the plan records
 * ({@code io.dataflow.reconfig.internal}, not exported to users); state transfer itself
 * ({@code DataflowMonitor.transfer} in {@code dataflow-monitor}, whose
 * {@code ContextTransferReport} reaches a listener set with
 * {@code ReconfigurableDataflowRuntimeBuilder.transferReports}); the runtime handle and the
 * owner loop ({@code dataflow-core}); the sources and sinks ({@code dataflow-io}).
 */
package io.dataflow.reconfig;
