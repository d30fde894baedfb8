/**
 * The front end of the specification language (internal): from text to a checked and typed
 * specification, one class per phase.
 *
 * <p>What lives here: {@code Lexer} ({@code Token}, {@code TokenKind}) -> {@link
 * io.dataflow.monitor.lang.Parser} ({@link io.dataflow.monitor.lang.Ast}, a sealed interface of
 * records) -> {@link io.dataflow.monitor.lang.Checker} (names, equations, dependencies, cycles,
 * history depths, evaluation order) -> {@link io.dataflow.monitor.lang.Typer} (gradual types,
 * {@link io.dataflow.monitor.lang.Type}; {@code BuiltinTypes} for the built-ins), run in order by
 * {@link io.dataflow.monitor.lang.Compiler}, which returns a
 * {@link io.dataflow.monitor.lang.CheckedSpec} or throws a
 * {@link io.dataflow.monitor.lang.CompileError} (collected by
 * {@link io.dataflow.monitor.lang.Diagnostics}). {@link io.dataflow.monitor.lang.Canonical}
 * prints the canonical text of an expression and hashes it: the semantic fingerprints and
 * definition keys. {@link io.dataflow.monitor.lang.TypingLevel} is the front end's copy of the
 * API's {@code TypingMode}.
 *
 * <p>What does not live here: anything that evaluates (package {@code io.dataflow.monitor.eval})
 * or generates code ({@code io.dataflow.monitor.codegen}), and the API ({@code
 * io.dataflow.monitor}, which wraps a {@code CheckedSpec} in a {@code DataflowProgram} and a
 * {@code CompileError} in a {@code SpecException}). This package depends on no other package of
 * the monitor (MonitorLayeringTest in dataflow-testkit checks it).
 */
package io.dataflow.monitor.lang;
