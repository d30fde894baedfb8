package io.dataflow.cli;

import java.nio.file.Path;

/**
 * The options of {@code dataflow run} and {@code dataflow live}, as parsed by
 * {@link Commands}; {@code inputFile} is null for {@code live} (which reads stdin),
 * {@code statusEvery} null unless {@code --status-every} was given; the checkpoint directory,
 * interval (ticks) and resume directory of {@code run} (null and 0 otherwise).
 */
record RunOptions(Path spec, Path inputFile, String format, boolean contextTransfer,
    java.time.Duration statusEvery, Path checkpointDir, long checkpointEvery, Path resume) {}
