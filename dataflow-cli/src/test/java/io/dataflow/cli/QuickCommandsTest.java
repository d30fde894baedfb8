package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.cli.CliTest.Result;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The common forms of {@code run} and {@code live} that skip picocli behave exactly as picocli
 * runs them (status, stdout and stderr); every other form is left to picocli.
 */
class QuickCommandsTest {
  @TempDir
  Path dir;
  private String spec;
  private String trace;
  private String jsonl;
  private String bad;
  private static final String STDIN = "{\"x\": 1}\n{\"x\": 2}\n{\"x\": 0}\n";

  @BeforeEach
  void files() throws IOException {
    spec = write("add.dsrv", "in x\nout z\nz = 10 / x\n");
    trace = write("t.input", "0: x = 1\n1: x = 2\n2: x = 5\n");
    jsonl = write("t.jsonl", "{\"x\": 1}\n{\"x\": 0}\n");
    bad = write("bad.input", "0: x = 1\nnot a tick\n");
  }

  private String write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p.toString();
  }

  private static Result call(String[] args, BiFunction<String[], Commands.Context, Integer> how) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Commands.Context ctx = new Commands.Context(
        new ByteArrayInputStream(STDIN.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Environment.pipes());
    int status = how.apply(args, ctx);
    return new Result(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  private List<String[]> quickForms() {
    String missing = dir.resolve("missing.input").toString();
    return List.of(
        new String[] {"run", spec, "--input-file", trace},
        new String[] {"run", "--input-file", trace, spec},
        new String[] {"run", spec, "--input-file=" + trace, "--format", "jsonl"},
        new String[] {"run", spec, "--format=text", "--no-context-transfer", "--input-file",
            trace},
        new String[] {"run", spec, "--input-file", jsonl, "--format=jsonl"},
        new String[] {"run", spec, "--input-file", bad},
        new String[] {"run", spec, "--input-file", missing},
        new String[] {"run", dir.resolve("nope.dsrv").toString(), "--input-file", trace},
        new String[] {"run", trace, "--input-file", trace},
        new String[] {"live", spec},
        new String[] {"live", spec, "--format", "jsonl"},
        new String[] {"live", "--no-context-transfer", spec, "--format=text"});
  }

  private List<String[]> picocliForms() {
    return List.of(
        new String[] {"run", spec},
        new String[] {"run", spec, "--input-file"},
        new String[] {"run", "--input-file", trace},
        new String[] {"run", spec, "--input-file", trace, "--format", "xml"},
        new String[] {"run", spec, "--input-file", trace, "--format", "jsonl", "--format", "text"},
        new String[] {"run", spec, "--input-file", trace, "--input-file", trace},
        new String[] {"run", spec, "--input-file", trace, "--bogus"},
        new String[] {"run", spec, "--input-file", trace, "--no-context-transfer",
            "--no-context-transfer"},
        new String[] {"run", spec, "--input-file", trace, "--no-context-transfer=true"},
        new String[] {"run", spec, "--input-file", trace, "-h"},
        new String[] {"run", spec, "--input-file", trace, "--status-every", "1h"},
        new String[] {"run", spec, "--input-file", trace, "--checkpoint-every", "5"},
        new String[] {"run", "--", spec, "--input-file", trace},
        new String[] {"run", spec, "--input-file", "-x"},
        new String[] {"run", spec, "--input-file", ""},
        new String[] {"run", spec, spec, "--input-file", trace},
        new String[] {"run", spec, "--input-file", "a\0b"},
        new String[] {"live", spec, "--input-file", trace},
        new String[] {"live", spec, "--format"},
        new String[] {"live"},
        new String[] {"RUN", spec, "--input-file", trace},
        new String[] {"check", spec});
  }

  @Test
  void theCommonFormsRunAsPicocliRunsThem() {
    for (String[] args : quickForms()) {
      assertThat(QuickCommands.parse(args)).as(String.join(" ", args)).isNotNull();
      assertThat(call(args, (a, c) -> Cli.run(a, c.in(), c.out(), c.err(), c.env()))).as(String.join(" ", args))
          .isEqualTo(call(args, Cli::withPicocli));
    }
  }

  @Test
  void everyOtherFormIsPicocli() {
    List<String> quick = new ArrayList<>();
    for (String[] args : picocliForms()) {
      if (QuickCommands.parse(args) != null) {
        quick.add(String.join(" ", args));
      }
      assertThat(call(args, (a, c) -> Cli.run(a, c.in(), c.out(), c.err(), c.env()))).as(String.join(" ", args))
          .isEqualTo(call(args, Cli::withPicocli));
    }
    assertThat(quick).isEmpty();
  }

  @Test
  void theOptionsAreThoseOfPicocli() {
    for (String[] args : quickForms()) {
      PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true);
      Commands.Context ctx = new Commands.Context(new ByteArrayInputStream(new byte[0]), sink,
          sink, Environment.pipes());
      picocli.CommandLine cl = Commands.commandLine(ctx, args);
      cl.parseArgs(args);
      Object command = cl.getSubcommands().get(args[0]).getCommand();
      RunOptions parsed = command instanceof Commands.Run r ? r.options()
          : ((Commands.Live) command).options();
      assertThat(QuickCommands.parse(args)).as(String.join(" ", args)).isEqualTo(parsed);
    }
  }
}
