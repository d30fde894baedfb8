package io.dataflow.cli;

/** The help text of {@code dataflow --help} (each command's own comes from {@link Commands}). */
final class Usage {
  static final String TEXT = String.join("\n",
      "usage: dataflow <command> [options]",
      "",
      "commands:",
      "  run SPEC --input-file TRACE [--format text|jsonl] [--no-context-transfer]",
      "        evaluate SPEC over the trace file TRACE and print the outputs",
      "  run SPEC --input-file F.jsonl --key FIELD [--partitions N] [--drivers N]",
      "        one monitor per value of FIELD (the keyed pipeline): KEY: name[tick] = Value",
      "  live SPEC [--format text|jsonl] [--no-context-transfer]",
      "        read JSON Lines ticks and {\"$reconfigure\": {...}} requests from stdin,",
      "        print outputs as they are produced",
      "  live SPEC --mqtt tcp://HOST:PORT [--input-topics x=robot/x,...]",
      "        [--output-topics z=robot/z,...] [--control-topic T] [--client-id ID]",
      "        [--on-bad-record fail|skip]",
      "        inputs from MQTT topics, outputs published and printed, requests on T",
      "        (run and live: --status-every DURATION prints a status line on stderr)",
      "  kafka SPEC --bootstrap HOST:PORT --input-topic T --output-topic O --group G",
      "        [--key FIELD] [--control-topic C]",
      "        the keyed pipeline on Kafka: outputs to O, commits for the group G",
      "  snapshot show FILE",
      "        print a snapshot or checkpoint file as JSON",
      "  check SPEC",
      "        compile SPEC and report the first error",
      "  help [COMMAND], --help, -h",
      "        print this help, or a command's (also: dataflow COMMAND --help)",
      "  --version, -V",
      "        print the version",
      "",
      "exit status: 0 success, 1 the run failed (runtime error, rejected request, I/O),",
      "             2 the command line, the spec or the trace is invalid",
      "");

  private Usage() {}
}
