/**
 * The specification language (docs/language.md): parsing, checking, compiling and evaluating.
 *
 * <p>Public API: {@link io.dataflow.monitor.DataflowProgram} (an immutable compiled
 * specification with fingerprints and a definition key), {@link io.dataflow.monitor.DataflowMonitor}
 * (the stateful evaluator, one tick per call, and the reconfiguration transitions
 * RetainExact / Transfer / InstallCold), {@link io.dataflow.monitor.MonitorInput} and
 * {@link io.dataflow.monitor.MonitorOutput} (a monitor's typed handles, for
 * {@code DataflowMonitor.step()}), {@link io.dataflow.monitor.TransferMapping},
 * {@link io.dataflow.monitor.ContextTransferReport}, {@link io.dataflow.monitor.SpecException},
 * {@link io.dataflow.monitor.TypingMode}, {@link io.dataflow.monitor.Type}.
 *
 * <p>The pipeline, one class per phase (package-private): {@code Lexer} -> {@code Parser}
 * ({@code Ast}, a sealed interface of records) -> {@code Checker} (names, equations,
 * dependencies, cycles, history depths, evaluation order) -> {@code Typer} (gradual types) ->
 * {@code Compiler} -> {@code DataflowProgram}. Evaluation: {@code NodeBuilder} builds
 * {@code Node}s per monitor ({@code Nodes}, {@code TemporalNodes}, {@code Builtins},
 * {@code Functions}, {@code DynamicNode} with {@code DynamicBodies}); values stay unboxed in
 * {@code Slot}s; {@code StreamCell} holds each stream's state. {@code FusedCompiler} generates
 * a class per monitor that runs the tick as straight-line code ({@code FusedStreams}), and a
 * batch of ticks in columns as one loop for specifications of typed scalar operators.
 *
 * <p>What does not live here: the owner loop and I/O (modules {@code dataflow-core} and
 * {@code dataflow-io}), requests and the cutover ({@code dataflow-reconfig}).
 */
package io.dataflow.monitor;
