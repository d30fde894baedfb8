/**
 * Deterministic monitors in ordinary unit tests (docs/testing.md).
 *
 * <ul>
 *   <li>{@link io.dataflow.testkit.ManualClock}: time moves only when the test says so; due
 *       timers fire in order, and a wait on it (a handle's timeout, a retry's backoff) lets the
 *       time pass at once instead of sleeping.
 *   <li>{@link io.dataflow.testkit.DataflowHarness}: a runtime built by the same
 *       {@code ReconfigurableDataflowRuntimeBuilder} users call, on a manual clock and stepped in
 *       the test's thread, configured with the same {@code RuntimeOptions}
 *       ({@link io.dataflow.testkit.DataflowHarness#DEFAULT_OPTIONS}); outputs collected
 *       ({@link io.dataflow.testkit.OutputTrace}) with fluent assertions
 *       ({@link io.dataflow.testkit.OutputTraceAssert}), acknowledgements, transfer reports,
 *       warnings and the active monitor kept for the test to read.
 *   <li>Fault injection: {@link io.dataflow.testkit.ScriptedSource},
 *       {@link io.dataflow.testkit.ScriptedSink}, {@link io.dataflow.testkit.ScriptedIoFactory},
 *       with a shared {@link io.dataflow.testkit.CallLog}; a {@code CutoverObserver} on the
 *       harness fails a chosen cutover step.
 *   <li>Golden traces: {@link io.dataflow.testkit.GoldenTraces} runs folders of spec / input /
 *       expected triples as JUnit 5 dynamic tests with a {@link io.dataflow.testkit.LineDiff}.
 *   <li>Seeded generators: {@link io.dataflow.testkit.SpecGenerator} (valid specifications,
 *       {@link io.dataflow.testkit.GeneratedSpec}, and broken ones,
 *       {@link io.dataflow.testkit.BrokenSpec}), {@link io.dataflow.testkit.TraceGenerator},
 *       {@link io.dataflow.testkit.RequestGenerator}, with {@link io.dataflow.testkit.Seeds}
 *       (seeds that name themselves on failure), {@link io.dataflow.testkit.Shrinker} and
 *       {@link io.dataflow.testkit.StreamType}.
 *   <li>Helpers: {@link io.dataflow.testkit.Values} (plain Java values to language values).
 * </ul>
 *
 * <p>What does not: anything a production deployment needs (this module depends on JUnit and
 * AssertJ; add it with test scope). The harness steps the internal owner loop, which is why
 * {@code io.dataflow.core.internal} is exported to this module; a test of a monitor needs none
 * of it.
 */
package io.dataflow.testkit;
