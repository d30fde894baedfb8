package io.dataflow.cli;

/** The help text. */
final class Usage {
  static final String TEXT = String.join("\n",
      "usage: dataflow <command> [options]",
      "",
      "commands:",
      "  run SPEC --input-file TRACE [--format text|jsonl] [--no-context-transfer]",
      "        evaluate SPEC over the trace file TRACE and print the outputs",
      "  live SPEC [--format text|jsonl] [--no-context-transfer]",
      "        read JSON Lines ticks and {\"$reconfigure\": {...}} requests from stdin,",
      "        print outputs as they are produced",
      "  check SPEC",
      "        compile SPEC and report the first error",
      "  --help",
      "        print this help",
      "",
      "exit status: 0 success, 1 the run failed (runtime error, rejected request, I/O),",
      "             2 the command line, the spec or the trace is invalid",
      "");

  private Usage() {}
}
