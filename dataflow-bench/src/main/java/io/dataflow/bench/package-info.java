/**
 * JMH benchmarks of the tick path and the hand-written baselines they are compared against
 * (issue 7). Run them with {@code dataflow-bench/run.sh}; results and targets live in
 * {@code docs/performance.md}.
 *
 * <p>What lives here:
 *
 * <ul>
 *   <li>{@link io.dataflow.bench.Workload}: the workloads (specification, per-tick inputs from
 *       precomputed arrays, and the {@link io.dataflow.bench.Baseline} computing the same
 *       outputs with plain fields).
 *   <li>One benchmark class per path: {@link io.dataflow.bench.MonitorBench} (the zero-allocation
 *       {@code evaluate(Row, Row)} API), {@link io.dataflow.bench.MixedMonitorBench} (the same
 *       after every workload ran in the JVM), {@link io.dataflow.bench.BaselineBench},
 *       {@link io.dataflow.bench.SteppedRuntimeBench} (the runtime stepped by the benchmark
 *       thread), {@link io.dataflow.bench.ThreadedRuntimeBench} (the runtime on its own thread fed
 *       by the benchmark thread) and {@link io.dataflow.bench.CutoverBench} (one root
 *       reconfiguration with Transfer).
 *   <li>{@link io.dataflow.bench.Report}: turns JMH's JSON result into the table
 *       {@code workload path ns_per_tick baseline_ns ratio bytes_per_tick} and checks the
 *       targets.
 * </ul>
 *
 * <p>What does not: correctness tests of the monitor (dataflow-monitor) and the zero-allocation
 * unit test ({@code io.dataflow.monitor.ZeroAllocationTest}). Benchmarks live in
 * {@code src/main}, so {@code mvn verify} compiles them but never runs them.
 */
package io.dataflow.bench;
