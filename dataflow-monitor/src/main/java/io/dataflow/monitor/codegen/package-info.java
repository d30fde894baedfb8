/**
 * The code generator of the specification language (internal): straight-line code for a
 * monitor's tick and for long-lived dynamic bodies, defined at run time as hidden classes.
 *
 * <p>What lives here: {@link io.dataflow.monitor.codegen.FusedCompiler} (a class per monitor,
 * and per body, over the evaluator's nodes and cells; the batch loop over columns),
 * {@code ClassFile} (the class-file writer), {@link io.dataflow.monitor.codegen.FusedStreams}
 * (what a monitor's generated class implements) and
 * {@link io.dataflow.monitor.codegen.GenerationRefused} (the only reasons a program gets no
 * generated code). The generated classes are defined with
 * {@code FusedCompiler}'s lookup, so they live in this package and reach the evaluator
 * ({@code io.dataflow.monitor.eval}) through its public members only; the internal names in
 * their bytecode come from class literals.
 *
 * <p>What does not live here: the nodes and their semantics ({@code io.dataflow.monitor.eval};
 * the generated code only replaces the walk over them), the front end
 * ({@code io.dataflow.monitor.lang}), and the choice of when a monitor uses generated code
 * ({@code io.dataflow.monitor.DataflowMonitor.Fusion}).
 */
package io.dataflow.monitor.codegen;
