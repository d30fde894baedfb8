/**
 * The code generator of the specification language (internal): code for a monitor's tick, its
 * batches in columns and long-lived dynamic bodies, written with ASM and defined at run time.
 *
 * <p>What lives here, one concern per file: {@link io.dataflow.monitor.codegen.FusedCompiler}
 * (the entry point: what to generate for a monitor or a body), {@code Coverage} (which programs
 * fuse into the batch loop), {@code TickEmitter} and {@code StreamEmitter} (the per-tick
 * methods), {@code BatchEmitter} (the batch loop and its dense variant),
 * {@code TypedOperatorCode} (a typed operator's code in those three forms, derived from what
 * the operator says about itself in {@code eval.TypedNodes}), {@code KernelEmitter} (a keyed
 * kernel's ticks) and {@code Inliner} (a class's static methods' bytecode copied into generated
 * code in place of their calls: the keyed kernel's steps, written once in
 * {@code eval.KeyedKernel.Steps}), {@code ClassDefiner} (writing,
 * checking, dumping, defining and loading a class), {@code Code}, {@code Constants} and
 * {@code Members} (a method body, the objects and the evaluator members generated code names),
 * {@link io.dataflow.monitor.codegen.FusedStreams} (what a monitor's generated class
 * implements) and {@link io.dataflow.monitor.codegen.GenerationRefused} (the only reasons a
 * program gets no generated code).
 *
 * <p>The generated classes are ordinary classes, each in a class loader of its own, in the
 * package {@code io.dataflow.monitor.generated} (which has no source): they reach the
 * evaluator ({@code io.dataflow.monitor.eval}) and this package through public members only,
 * exported to their loader alone; stack traces show their frames with the specification's
 * file name and the equations' lines.
 *
 * <p>What does not live here: the nodes and their semantics ({@code io.dataflow.monitor.eval};
 * the generated code only replaces the walk over them), the front end
 * ({@code io.dataflow.monitor.lang}), and the choice of when a monitor uses generated code
 * ({@code io.dataflow.monitor.DataflowMonitor.Fusion}).
 */
package io.dataflow.monitor.codegen;
