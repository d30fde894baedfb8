package io.dataflow.cli;

import java.nio.file.Path;

/** The options of {@code dataflow run}. */
record RunOptions(Path spec, Path inputFile, String format, boolean contextTransfer) {
  static RunOptions parse(String[] args, boolean needsInputFile) {
    Path spec = null;
    Path input = null;
    String format = "text";
    boolean transfer = true;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--input-file":
          input = Path.of(value(args, ++i, a));
          break;
        case "--format":
          format = value(args, ++i, a);
          if (!format.equals("text") && !format.equals("jsonl")) {
            throw new Cli.UsageException("--format must be text or jsonl, not '" + format + "'");
          }
          break;
        case "--no-context-transfer":
          transfer = false;
          break;
        default:
          if (a.startsWith("--input-file=")) {
            input = Path.of(a.substring("--input-file=".length()));
          } else if (a.startsWith("--format=")) {
            format = a.substring("--format=".length());
            if (!format.equals("text") && !format.equals("jsonl")) {
              throw new Cli.UsageException("--format must be text or jsonl, not '" + format
                  + "'");
            }
          } else if (a.startsWith("-")) {
            throw new Cli.UsageException("unknown option '" + a + "'");
          } else if (spec == null) {
            spec = Path.of(a);
          } else {
            throw new Cli.UsageException("unexpected argument '" + a + "'");
          }
      }
    }
    if (spec == null) {
      throw new Cli.UsageException(args[0] + " needs a SPEC file");
    }
    if (input == null && needsInputFile) {
      throw new Cli.UsageException("run needs --input-file TRACE");
    }
    if (input != null && !needsInputFile) {
      throw new Cli.UsageException("live reads stdin; --input-file is for run");
    }
    return new RunOptions(spec, input, format, transfer);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new Cli.UsageException(option + " needs a value");
    }
    return args[i];
  }
}
