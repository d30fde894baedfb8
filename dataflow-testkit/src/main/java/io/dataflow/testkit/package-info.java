/**
 * Deterministic monitors in ordinary unit tests.
 *
 * <ul>
 *   <li>{@link io.dataflow.testkit.ManualClock}: time moves only when the test says so; due
 *       timers fire in order.
 *   <li>{@link io.dataflow.testkit.DataflowHarness}: a reconfigurable runtime stepped in the
 *       test's thread, with outputs collected ({@link io.dataflow.testkit.OutputTrace}) and
 *       fluent assertions ({@link io.dataflow.testkit.OutputTraceAssert}).
 *   <li>Fault injection: {@link io.dataflow.testkit.ScriptedSource},
 *       {@link io.dataflow.testkit.ScriptedSink}, {@link io.dataflow.testkit.ScriptedIoFactory},
 *       with a shared {@link io.dataflow.testkit.CallLog}.
 *   <li>Golden traces: {@link io.dataflow.testkit.GoldenTraces} runs folders of spec / input /
 *       expected triples as JUnit 5 dynamic tests with a {@link io.dataflow.testkit.LineDiff}.
 *   <li>Seeded generators of specifications, traces and requests.
 * </ul>
 *
 * <p>What does not: anything a production deployment needs (this module depends on JUnit).
 */
package io.dataflow.testkit;
