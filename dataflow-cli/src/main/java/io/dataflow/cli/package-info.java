/**
 * The {@code bin/dataflow} command line: {@code run}, {@code live}, {@code kafka},
 * {@code check}, {@code snapshot show}, {@code runs}. Argument parsing with picocli
 * ({@code Commands}; the durable runs' {@code RunsCommands}), the commands, the progress line of
 * a long run on a terminal ({@code ProgressLine}, {@code ProgressReporter}) and the mapping of a
 * run's {@link io.dataflow.core.ExitReport} to the exit status of docs/cli.md#exit-status
 * ({@code Cli}); {@code RunsCli} and {@code RunsReport} open the durable-runs ledger and print
 * its runs; what it takes from its surroundings ({@code Environment}: the clock, terminals,
 * environment variables, and where SIGTERM and Ctrl-C come from, {@code Signals});
 * {@code ArchiveTraining} is what the build runs to make the launcher's class-data-sharing
 * archive (docs/cli.md#the-launcher). No logic of its own beyond wiring: everything it runs is
 * library API.
 */
package io.dataflow.cli;
