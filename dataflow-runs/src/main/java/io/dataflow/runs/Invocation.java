package io.dataflow.runs;

/** Who asked for a run: a program through the API, or a person through {@code bin/dataflow}. */
public enum Invocation {
  /** A program calling {@link DurableRuns#start}. */
  API,
  /** The command line ({@code bin/dataflow runs start}). */
  CLI
}
