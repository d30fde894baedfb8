/**
 * The specification language's public API (docs/language.md): compile a specification, run a
 * monitor over it, reconfigure the monitor.
 *
 * <p>What lives here, and nothing else: {@link io.dataflow.monitor.DataflowProgram} (an
 * immutable compiled specification with fingerprints and a definition key),
 * {@link io.dataflow.monitor.DataflowMonitor} (the stateful monitor, one tick per call, its
 * {@code Options} and {@code Fusion}, and the reconfiguration transitions RetainExact / Transfer
 * / InstallCold with their {@code Transition}), {@link io.dataflow.monitor.MonitorInput} and
 * {@link io.dataflow.monitor.MonitorOutput} (a monitor's typed handles, for
 * {@code DataflowMonitor.step()}), {@link io.dataflow.monitor.TransferMapping},
 * {@link io.dataflow.monitor.ContextTransferReport}, {@link io.dataflow.monitor.SpecException}
 * and {@link io.dataflow.monitor.TypingMode}. No public signature here names a type of the
 * internal packages.
 *
 * <p>The implementation is in three internal packages, layered in this order (each uses only
 * those after it; the API uses all three):
 * <ul>
 *   <li>{@code io.dataflow.monitor.codegen}: the code generator, straight-line code per monitor
 *       and per long-lived dynamic body, defined as hidden classes at run time;
 *   <li>{@code io.dataflow.monitor.eval}: the evaluator, the nodes, cells and history rings of a
 *       monitor, the operators' semantics, dynamic properties, and the interpreter's tick;
 *   <li>{@code io.dataflow.monitor.lang}: the front end, text to a checked and typed
 *       specification.
 * </ul>
 * {@code DataflowProgram.compile} runs the front end and turns its errors into a
 * {@code SpecException}; {@code DataflowMonitor} owns an evaluator and switches its ticks to
 * generated code (eagerly, in the background, or never).
 *
 * <p>What does not live here: the owner loop and I/O (modules {@code dataflow-core} and
 * {@code dataflow-io}), requests and the cutover ({@code dataflow-reconfig}).
 */
package io.dataflow.monitor;
