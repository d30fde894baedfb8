package io.dataflow.cli;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.Value;
import io.dataflow.io.TextOutputWriter;
import io.dataflow.io.TraceException;
import io.dataflow.io.TraceReader;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** The command line: parses arguments, runs a command, maps the outcome to an exit status. */
final class Cli {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int INVALID = 2;

  private Cli() {}

  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")
        || args[0].equals("help")) {
      (args.length == 0 ? err : out).print(Usage.TEXT);
      return args.length == 0 ? INVALID : OK;
    }
    try {
      switch (args[0]) {
        case "run":
          return runCommand(args, out, err);
        case "check":
          return checkCommand(args, out, err);
        default:
          throw new UsageException("unknown command '" + args[0] + "'");
      }
    } catch (UsageException e) {
      err.println("dataflow: " + e.getMessage() + " (see dataflow --help)");
      return INVALID;
    }
  }

  static final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private static int checkCommand(String[] args, PrintStream out, PrintStream err) {
    if (args.length != 2) {
      throw new UsageException("check takes one SPEC file");
    }
    Path spec = Path.of(args[1]);
    try {
      DataflowProgram p = DataflowProgram.compile(spec.toString(), readSpec(spec));
      out.println(spec + ": ok (" + p.inputs().width() + " inputs, " + p.outputs().width()
          + " outputs)");
      return OK;
    } catch (SpecException e) {
      err.println(e.getMessage());
      return INVALID;
    } catch (IOException e) {
      err.println(spec + ": cannot read: " + describe(e));
      return INVALID;
    }
  }

  private static int runCommand(String[] args, PrintStream out, PrintStream err) {
    RunOptions options = RunOptions.parse(args);
    DataflowProgram program;
    try {
      program = DataflowProgram.compile(options.spec().toString(), readSpec(options.spec()));
    } catch (SpecException e) {
      err.println(e.getMessage());
      return INVALID;
    } catch (IOException e) {
      err.println(options.spec() + ": cannot read: " + describe(e));
      return INVALID;
    }
    TraceReader reader;
    try {
      reader = TraceReader.open(options.inputFile());
    } catch (IOException e) {
      err.println(options.inputFile() + ": cannot read: " + describe(e));
      return INVALID;
    }
    Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    var writer = options.format().equals("jsonl")
        ? new io.dataflow.io.JsonLinesOutputWriter(w, false) : new TextOutputWriter(w, false);
    DataflowMonitor monitor = DataflowMonitor.create(program);
    Row inRow = program.inputs().newRow();
    Row outRow = program.outputs().newRow();
    Set<String> warned = new HashSet<>();
    int status = OK;
    try (reader) {
      TraceReader.Item item;
      while ((item = reader.next()) != null) {
        if (item instanceof TraceReader.Tick t) {
          inRow.clear();
          for (Map.Entry<String, Value> e : t.values().entrySet()) {
            int slot = program.inputs().slotOf(e.getKey());
            if (slot < 0) {
              if (warned.add(e.getKey())) {
                err.println(options.inputFile() + ":" + t.line() + ": warning: '" + e.getKey()
                    + "' is not an input of " + options.spec() + "; ignored");
              }
              continue;
            }
            inRow.set(slot, e.getValue());
          }
          monitor.evaluate(inRow, outRow);
          writer.feed(t.number(), program.outputs(), outRow);
        } else {
          throw new UsageException("@reconfigure is not supported yet");
        }
      }
    } catch (MonitorException e) {
      status = FAILED;
      flushQuietly(writer);
      err.println(runtimeError(program, e));
    } catch (TraceException e) {
      status = INVALID;
      flushQuietly(writer);
      err.println(e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      status = FAILED;
      flushQuietly(writer);
      err.println("dataflow: I/O error: " + describe(e));
    }
    flushQuietly(writer);
    return status;
  }

  static String runtimeError(DataflowProgram program, MonitorException e) {
    if (e.stream() != null) {
      var def = program.stream(e.stream());
      if (def.isPresent()) {
        return def.get().location() + ": " + e.getMessage();
      }
    }
    return program.name() + ": " + e.getMessage();
  }

  private static void flushQuietly(io.dataflow.core.OutputWriter writer) {
    try {
      writer.flush();
    } catch (IOException ignored) {
      // the failure that ended the run is what gets reported
    }
  }

  static String readSpec(Path spec) throws IOException {
    return Files.readString(spec, StandardCharsets.UTF_8);
  }

  static String describe(Exception e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof UncheckedIOException u) {
      return describe(u.getCause());
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
