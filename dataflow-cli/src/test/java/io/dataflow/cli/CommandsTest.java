package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.cli.CliTest.Result;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/**
 * The command line is built for the command it runs: only that command's annotations are read
 * at start-up, and its arguments parse as they did with every command present; the type
 * converters {@link Main} leaves out are those of types no option has.
 */
class CommandsTest {
  private static final String[] ALL =
      {"run", "live", "kafka", "check", "snapshot", "runs", "help"};

  private static CommandLine commandLine(String... args) {
    PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true);
    Commands.Context ctx = new Commands.Context(new ByteArrayInputStream(new byte[0]), sink,
        sink, Environment.pipes());
    return Commands.commandLine(ctx, args);
  }

  private static Iterable<String> commandsBuiltFor(String... args) {
    return commandLine(args).getSubcommands().keySet();
  }

  @Test
  void aCommandIsBuiltAloneForItsOwnArguments() {
    assertThat(commandsBuiltFor("run", "x.dsrv", "--input-file", "x.input"))
        .containsExactly("run");
    assertThat(commandsBuiltFor("live", "x.dsrv")).containsExactly("live");
    assertThat(commandsBuiltFor("kafka", "--help")).containsExactly("kafka");
    assertThat(commandsBuiltFor("check")).containsExactly("check");
    assertThat(commandsBuiltFor("snapshot", "show", "f")).containsExactly("snapshot");
    assertThat(commandsBuiltFor("runs", "list")).containsExactly("runs");
  }

  @Test
  void helpOptionsAndUnknownWordsGetEveryCommand() {
    for (String[] args : new String[][] {{}, {"help", "run"}, {"--help"}, {"-V"}, {"frobnicate"},
        {"--", "run"}, {"RUN"}}) {
      assertThat(commandsBuiltFor(args)).as(String.join(" ", args)).containsExactly(ALL);
    }
  }

  @Test
  void noOptionHasATypeWhoseConverterMainLeavesOut() {
    List<String> types = new ArrayList<>();
    Deque<CommandLine> todo = new ArrayDeque<>(List.of(commandLine()));
    while (!todo.isEmpty()) {
      CommandLine command = todo.pop();
      todo.addAll(command.getSubcommands().values());
      for (ArgSpec arg : command.getCommandSpec().args()) {
        types.add(arg.type().getName());
        for (Class<?> aux : arg.auxiliaryTypes()) {
          types.add(aux.getName());
        }
      }
    }
    assertThat(types).contains("java.nio.file.Path", "java.lang.String", "boolean");
    for (String excluded : Commands.UNUSED_CONVERTERS.split(",")) {
      assertThat(types).as(excluded).noneMatch(t -> t.matches(excluded));
    }
    assertThat("java.time.Duration").matches(Commands.UNUSED_CONVERTERS.split(",")[1]);
  }

  @Test
  void anArgumentThatNamesAnotherCommandIsAnArgumentOfTheCommandGiven() {
    String[][] cases = {
        {"unexpected argument 'live'", CliTest.RUN_USAGE,
            "run", "a.dsrv", "live", "--input-file", "c"},
        {"check takes one SPEC file", CliTest.CHECK_USAGE, "check", "a.dsrv", "run"},
        {"unexpected argument 'run'", "Usage: dataflow snapshot show FILE\n",
            "snapshot", "show", "f", "run"},
    };
    for (String[] c : cases) {
      String[] args = java.util.Arrays.copyOfRange(c, 2, c.length);
      Result r = CliTest.cli("", args);
      assertThat(r).as(String.join(" ", args)).isEqualTo(new Result(2, "",
          "dataflow: " + c[0] + " (see dataflow --help)\n" + c[1]));
    }
    Result spec = CliTest.cli("", "run", "live", "--input-file", "no-such.input");
    assertThat(spec).isEqualTo(new Result(2, "", "no-such.input: cannot read: no such file\n"));
  }
}
