package io.dataflow.runs;

/**
 * Who and what started an attempt, as recorded in the ledger before execution.
 *
 * @param invocation the API or the command line
 * @param host the host name
 * @param process the process id
 * @param libraryVersion the version of dataflow that ran it
 */
public record Provenance(Invocation invocation, String host, long process,
    String libraryVersion) {}
