/**
 * The evaluator of the specification language (internal): the state of a monitor and the
 * semantics of every operator.
 *
 * <p>What lives here: {@link io.dataflow.monitor.eval.Evaluator} (one monitor's cells, order,
 * tick counter, on-demand evaluation and the interpreter's tick); {@code NodeBuilder}, which
 * builds {@link io.dataflow.monitor.eval.Node}s from the front end's syntax tree
 * ({@link io.dataflow.monitor.eval.Nodes}, {@link io.dataflow.monitor.eval.TypedNodes},
 * {@link io.dataflow.monitor.eval.TemporalNodes}, {@link io.dataflow.monitor.eval.Builtins},
 * {@link io.dataflow.monitor.eval.Functions}, {@link io.dataflow.monitor.eval.Ops}), and
 * {@code NodeRecipe}, the same trees from look-ups resolved once per program (plain equations);
 * unboxed values in {@link io.dataflow.monitor.eval.Slot}s, each stream's state in a
 * {@link io.dataflow.monitor.eval.StreamCell} with its
 * {@link io.dataflow.monitor.eval.HistoryRing}; run-time type checks
 * ({@link io.dataflow.monitor.eval.TypeCheck}); dynamic properties
 * ({@link io.dataflow.monitor.eval.DynamicNode}, {@link io.dataflow.monitor.eval.DynamicBodies});
 * runtime errors ({@code EvalError}); a monitor's operator state for snapshots
 * ({@link io.dataflow.monitor.eval.StateWalker}, which follows a recipe's flattened walk where a
 * tree has one).
 *
 * <p>Generated code runs the same ticks over the same objects: the fields and methods it uses
 * inline are public, and so are the node classes it names; each says so. A body that stays
 * active gets its code through {@link io.dataflow.monitor.eval.BodyCompiler} (as a
 * {@link io.dataflow.monitor.eval.CompiledBody}), which the monitor hands in.
 *
 * <p>What does not live here: parsing, checking and typing ({@code io.dataflow.monitor.lang},
 * which this package uses), the code generator ({@code io.dataflow.monitor.codegen}, which uses
 * this package; this package does not use it), the API ({@code io.dataflow.monitor}: the
 * monitor's handles, its failure, its revision, its fusion and its reconfiguration transitions).
 */
package io.dataflow.monitor.eval;
