package io.dataflow.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IHelpSectionRenderer;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The commands as picocli parses them: {@code run}, {@code live}, {@code kafka},
 * {@code check}, {@code snapshot show} and {@code help}, each with {@code --help}, and
 * {@code dataflow --help}/{@code --version} ({@code runs ...} are {@link RunsCommands}'). A
 * command line that cannot be parsed is exit status 2 with the project's message and a usage
 * line on stderr ({@link #usageError}); the commands themselves are {@link Cli}'s.
 */
final class Commands {
  /** What a command runs with: the streams and the environment. */
  record Context(InputStream in, PrintStream out, PrintStream err, Environment env) {}

  static final String EXIT_STATUS = "%nExit status: 0 success, 1 the run failed (runtime error,"
      + " rejected request, I/O),%n             2 the command line, the spec or the trace is"
      + " invalid.";

  /**
   * The system property of the type converters picocli leaves out (regular expressions over
   * class names, comma-separated).
   */
  static final String CONVERTER_EXCLUDES = "picocli.converters.excludes";

  /**
   * The converters no option of ours needs: picocli registers them for every command by loading
   * and initialising their classes ({@code java.sql} and {@code java.time}, a hundred classes),
   * which was start-up work of every run. {@link Main} leaves them out; {@code CommandsTest}
   * checks that no option has such a type.
   */
  static final String UNUSED_CONVERTERS = "java\\.sql\\..*,java\\.time\\..*";

  private Commands() {}

  /** The commands under {@code dataflow}. */
  private static final List<String> COMMANDS =
      List.of("run", "live", "kafka", "check", "snapshot", "runs", "help");

  private static Object command(String name, Context ctx) {
    switch (name) {
      case "run":
        return new Run(ctx);
      case "live":
        return new Live(ctx);
      case "kafka":
        return new Kafka(ctx);
      case "check":
        return new Check(ctx);
      case "snapshot":
        return new CommandLine(new Snapshot(ctx)).addSubcommand("show", new SnapshotShow(ctx));
      case "runs":
        return RunsCommands.commandLine(ctx);
      case "help":
        return new CommandLine.HelpCommand();
      default:
        throw new IllegalArgumentException("no command " + name);
    }
  }

  /**
   * The {@code dataflow} command line that parses {@code args}, over {@code ctx}'s streams: help
   * and version on stdout, the project's usage errors and messages on stderr. When
   * {@code args[0]} names a command, only that command is added under {@code dataflow},
   * otherwise all of them: picocli reads each command's annotations reflectively when it is
   * added, which was most of the CLI's start-up. The arguments after a command never name a
   * sibling command, so they parse the same either way ({@code help COMMAND} looks the others
   * up, so it gets them all).
   */
  static CommandLine commandLine(Context ctx, String[] args) {
    CommandLine cl = new CommandLine(new Dataflow(ctx));
    String first = args.length > 0 ? args[0] : "";
    boolean alone = COMMANDS.contains(first) && !first.equals("help");
    for (String name : alone ? List.of(first) : COMMANDS) {
      cl.addSubcommand(name, command(name, ctx));
    }
    // These settings reach the subcommands added above.
    cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    cl.setExpandAtFiles(false); // an argument @x names the file @x, as it always did
    cl.setOverwrittenOptionsAllowed(true); // the last --format wins, as it always did
    cl.setOut(new PrintWriter(ctx.out(), true));
    cl.setErr(new PrintWriter(ctx.err(), true));
    cl.setParameterExceptionHandler((ex, given) -> usageError(ex, given, ctx.err()));
    cl.setExecutionExceptionHandler((ex, command, parsed) -> internalError(ex, ctx));
    // dataflow --help is the project's overview of the commands.
    Map<String, IHelpSectionRenderer> sections = new LinkedHashMap<>();
    sections.put("overview", help -> Usage.TEXT);
    cl.getCommandSpec().usageMessage().sectionKeys(List.of("overview")).sectionMap(sections);
    return cl;
  }

  /**
   * Prints the error line {@code dataflow: <problem> (see dataflow --help)} and the usage line
   * of the command it concerns ({@code Usage: dataflow run SPEC --input-file TRACE ...}) on
   * stderr, and returns exit status 2.
   */
  static int usageError(ParameterException ex, String[] args, PrintStream err) {
    err.println("dataflow: " + problem(ex, args) + " (see dataflow --help)");
    err.println(usageLine(ex.getCommandLine()));
    return Cli.INVALID;
  }

  /**
   * {@code Usage: } and the first form of {@code command}'s synopsis, on one line (a command
   * with a second form, {@code run --key}, shows it in its help).
   */
  static String usageLine(CommandLine command) {
    CommandLine.Help help = command.getHelp();
    String[] lines = (help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()))
        .split("\\R");
    StringBuilder sb = new StringBuilder(lines[0].strip());
    for (int i = 1; i < lines.length && !lines[i].strip().startsWith("dataflow "); i++) {
      sb.append(' ').append(lines[i].strip());
    }
    return sb.toString().strip();
  }

  /** The positive number an option was given, or a usage error of {@code command}. */
  static int positive(CommandSpec command, String option, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException(command, option + " must be a positive number, not '" + value
        + "'");
  }

  /** The first argument of {@code command} that looks like an option it does not have. */
  private static String firstUnknownOption(CommandLine command, String[] args) {
    int from = 0;
    if (command.getParent() != null) {
      from = java.util.Arrays.asList(args).indexOf(command.getCommandName()) + 1;
    }
    Map<String, OptionSpec> known = command.getCommandSpec().optionsMap();
    for (int i = from; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        return null; // what follows is not an option
      }
      if (a.startsWith("-") && a.length() > 1) {
        String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        OptionSpec o = known.get(name);
        if (o == null) {
          return a;
        }
        if (o.arity().max() > 0 && !a.contains("=")) {
          i++; // its value, whatever it looks like
        }
      }
    }
    return null;
  }

  /** The project's wording of a parse error (the texts the hand-written parser used). */
  static String problem(ParameterException ex, String[] args) {
    if (ex instanceof UsageException) {
      return ex.getMessage();
    }
    CommandLine where = ex.getCommandLine();
    String command = commandName(where);
    boolean top = where.getParent() == null;
    if (ex instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      String arg = u.getUnmatched().get(0);
      if (arg.startsWith("-")) {
        return "unknown option '" + arg + "'";
      }
      if (top) {
        return "unknown command '" + arg + "'";
      }
      if (!where.getSubcommands().isEmpty()) {
        return "unknown command '" + command + " " + arg + "'";
      }
      return command.equals("check") ? "check takes one SPEC file"
          : "unexpected argument '" + arg + "'";
    }
    if (ex instanceof MissingParameterException) {
      // picocli reports a missing argument before an unknown option; the unknown option is the
      // user's actual mistake (run SPEC --bogus), as the hand-written parser said.
      String unknown = firstUnknownOption(where, args);
      if (unknown != null) {
        return "unknown option '" + unknown + "'";
      }
    }
    if (ex instanceof MissingParameterException m && !m.getMissing().isEmpty()) {
      for (ArgSpec a : m.getMissing()) {
        String typed = a instanceof OptionSpec o ? typedName(o, args) : null;
        if (typed != null) {
          return typed + " needs a value";
        }
      }
      for (ArgSpec a : m.getMissing()) {
        if (a.isPositional()) {
          String label = a.paramLabel();
          return command.equals("check") ? "check takes one SPEC file"
              : command + " needs " + (label.equals("SPEC") ? "a SPEC file" : label);
        }
      }
      OptionSpec o = (OptionSpec) m.getMissing().get(0);
      return command + " needs " + o.longestName() + " " + o.paramLabel();
    }
    String message = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    message = message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
    return message.isEmpty() ? message
        : Character.toLowerCase(message.charAt(0)) + message.substring(1);
  }

  /** The command's name below {@code dataflow}: {@code run}, {@code runs start}. */
  static String commandName(CommandLine command) {
    String qualified = command.getCommandSpec().qualifiedName(" ");
    String root = command.getCommandSpec().root().name() + " ";
    return qualified.startsWith(root) ? qualified.substring(root.length()) : qualified;
  }

  /**
   * The name under which {@code option} was given ({@code --format} or {@code --format=}), or
   * null; what follows {@code --} is not an option.
   */
  private static String typedName(OptionSpec option, String[] args) {
    for (String arg : args) {
      if (arg.equals("--")) {
        break;
      }
      for (String name : option.names()) {
        if (arg.equals(name) || arg.startsWith(name + "=")) {
          return name;
        }
      }
    }
    return null;
  }

  /** A usage error in the project's words, thrown while parsing (from an option's setter). */
  static final class UsageException extends ParameterException {
    private static final long serialVersionUID = 1L;

    UsageException(CommandSpec spec, String message) {
      super(spec.commandLine(), message);
    }
  }

  static String checkFormat(CommandSpec spec, String format) {
    if (!format.equals("text") && !format.equals("jsonl")) {
      throw new UsageException(spec, "--format must be text or jsonl, not '" + format + "'");
    }
    return format;
  }

  /**
   * A duration such as {@code 5s}, {@code 500ms}, {@code 2m} or {@code 1h}, positive, given to
   * {@code option}; otherwise a usage error naming it.
   */
  static java.time.Duration checkDuration(CommandSpec spec, String option, String text) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,9})(ms|s|m|h)")
        .matcher(text);
    if (m.matches() && Long.parseLong(m.group(1)) > 0) {
      long n = Long.parseLong(m.group(1));
      switch (m.group(2)) {
        case "ms":
          return java.time.Duration.ofMillis(n);
        case "s":
          return java.time.Duration.ofSeconds(n);
        case "m":
          return java.time.Duration.ofMinutes(n);
        default:
          return java.time.Duration.ofHours(n);
      }
    }
    throw new UsageException(spec, option + " must be a positive duration such as 5s or"
        + " 500ms, not '" + text + "'");
  }

  /** {@code dataflow}: without a command, the overview on stderr and status 2. */
  @Command(name = "dataflow", mixinStandardHelpOptions = true, versionProvider = Version.class,
      customSynopsis = "dataflow <command> [options]")
  static final class Dataflow implements Callable<Integer> {
    private final Context ctx;

    Dataflow(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      ctx.err().print(Usage.TEXT);
      return Cli.INVALID;
    }
  }

  /** What {@code run} and {@code live} share: the specification and the output options. */
  static final class RunAndLive {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "SPEC", description = "the specification file")
    Path specFile;
    private String format = "text";
    private java.time.Duration statusEvery;
    @Option(names = "--no-context-transfer", order = 3,
        description = "start every replacement specification cold instead of moving state")
    boolean noContextTransfer;
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 4,
        description = "print this help and exit")
    boolean help;

    @Option(names = "--format", paramLabel = "text|jsonl", order = 2,
        description = "the output format: text (the default) or jsonl (JSON Lines)")
    void format(String value) {
      format = checkFormat(spec, value);
    }

    @Option(names = "--status-every", paramLabel = "DURATION", order = 3,
        description = "print a status line on stderr every DURATION (5s, 500ms, 2m)")
    void statusEvery(String value) {
      statusEvery = checkDuration(spec, "--status-every", value);
    }

    RunOptions options(Path inputFile, Path checkpointDir, long checkpointEvery, Path resume) {
      return new RunOptions(specFile, inputFile, format, !noContextTransfer, statusEvery,
          checkpointDir, checkpointEvery, resume);
    }
  }

  @Command(name = "run", sortOptions = false, footer = EXIT_STATUS,
      customSynopsis = {"dataflow run SPEC --input-file TRACE [--format text|jsonl]",
          "                    [--no-context-transfer]",
          "       dataflow run SPEC --input-file F.jsonl --key FIELD [--partitions N]",
          "                    [--drivers N] [--on-bad-record fail|skip]"},
      description = {"Evaluates SPEC over the trace file TRACE and prints the outputs on stdout.",
          "A run that takes more than a second shows its progress on stderr when stderr is a"
              + " terminal.",
          "With --key, runs one monitor per value of FIELD in the JSON Lines file (the keyed"
              + " pipeline) and prints KEY: name[tick] = Value."})
  static final class Run implements Callable<Integer> {
    private final Context ctx;
    @Mixin
    RunAndLive common;
    @Option(names = "--input-file", paramLabel = "TRACE", required = true, order = 1,
        description = "the trace file")
    Path inputFile;
    @Option(names = "--checkpoint-dir", paramLabel = "DIR", order = 5,
        description = "write checkpoints into DIR (the newest 3 are kept)")
    Path checkpointDir;
    private long checkpointEvery = QuickCommands.RUN_CHECKPOINT_EVERY;
    @Option(names = "--resume", paramLabel = "DIR", order = 7,
        description = "resume from the newest checkpoint in DIR")
    Path resume;

    Run(Context ctx) {
      this.ctx = ctx;
    }

    @Option(names = "--checkpoint-every", paramLabel = "N", order = 6,
        description = "with --checkpoint-dir: a checkpoint after every N ticks (1000)")
    void checkpointEvery(String value) {
      checkpointEveryGiven = true;
      try {
        checkpointEvery = Long.parseLong(value);
      } catch (NumberFormatException e) {
        checkpointEvery = 0;
      }
      if (checkpointEvery < 1) {
        throw new UsageException(common.spec,
            "--checkpoint-every must be a positive number of ticks, not '" + value + "'");
      }
    }

    private boolean checkpointEveryGiven;

    @Option(names = "--key", paramLabel = "FIELD", order = 8,
        description = "run the keyed pipeline: FIELD of each JSON Lines record is the key")
    String key;
    private int partitions = 4;
    private int drivers = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    private boolean partitionsGiven;
    private boolean driversGiven;
    private String onBadRecord;

    @Option(names = "--partitions", paramLabel = "N", order = 9,
        description = "with --key: split the records by key hash into N lanes (4)")
    void partitions(String value) {
      partitions = positive(common.spec, "--partitions", value);
      partitionsGiven = true;
    }

    @Option(names = "--drivers", paramLabel = "N", order = 10,
        description = "with --key: N driver threads (cores - 1, at least 1)")
    void drivers(String value) {
      drivers = positive(common.spec, "--drivers", value);
      driversGiven = true;
    }

    @Option(names = "--on-bad-record", paramLabel = "fail|skip", order = 11,
        description = "with --key: a bad record fails the run (fail, the default) or is"
            + " skipped with a warning (skip)")
    void onBadRecord(String value) {
      if (!value.equals("fail") && !value.equals("skip")) {
        throw new UsageException(common.spec, "--on-bad-record must be fail or skip, not '"
            + value + "'");
      }
      onBadRecord = value;
    }

    /** The options parsed (without {@code --key}'s). */
    RunOptions options() {
      return common.options(inputFile, checkpointDir, checkpointEvery, resume);
    }

    @Override
    public Integer call() {
      if (checkpointEveryGiven && checkpointDir == null) {
        throw new UsageException(common.spec, "--checkpoint-every needs --checkpoint-dir DIR");
      }
      RunOptions options = options();
      if (key == null) {
        if (partitionsGiven || driversGiven || onBadRecord != null) {
          throw new UsageException(common.spec, (partitionsGiven ? "--partitions"
              : driversGiven ? "--drivers" : "--on-bad-record") + " needs --key FIELD");
        }
        return Cli.runCommand(options, ctx);
      }
      if (checkpointDir != null || resume != null) {
        throw new UsageException(common.spec, (checkpointDir != null ? "--checkpoint-dir"
            : "--resume") + " is not available with --key (the keyed pipeline commits through"
            + " its checkpointer; see docs/pipeline.md)");
      }
      return Cli.keyedRunCommand(options, new Cli.Keyed(key, partitions, drivers,
          "skip".equals(onBadRecord)), ctx);
    }
  }

  @Command(name = "live", sortOptions = false, footer = EXIT_STATUS,
      customSynopsis = {"dataflow live SPEC [--format text|jsonl] [--no-context-transfer]",
          "       dataflow live SPEC --mqtt tcp://HOST:PORT [--input-topics x=robot/x,...]",
          "                    [--output-topics z=robot/z,...] [--control-topic T]",
          "                    [--client-id ID] [--on-bad-record fail|skip]"},
      description = {"Reads JSON Lines from stdin: one tick object per line ({\"x\": 1}) or a"
          + " control line ({\"$reconfigure\": {...}}); prints the outputs as they are produced.",
          "With --mqtt, reads each input stream from its MQTT topic (the stream's name unless"
              + " routed), publishes each output stream to its topic as well as printing it, and"
              + " takes requests on the control topic (acknowledgements on T/ack)."})
  static final class Live implements Callable<Integer> {
    private final Context ctx;
    @Spec
    CommandSpec spec;
    @Mixin
    RunAndLive common;
    @Option(names = "--mqtt", paramLabel = "tcp://HOST:PORT", order = 5,
        description = "read inputs from and publish outputs to this MQTT broker")
    String mqtt;
    @Option(names = "--input-topics", paramLabel = "x=robot/x,...", order = 6,
        description = "with --mqtt: the topics of some input streams (default: their names)")
    String inputTopics;
    @Option(names = "--output-topics", paramLabel = "z=robot/z,...", order = 7,
        description = "with --mqtt: the topics of some output streams (default: their names)")
    String outputTopics;
    @Option(names = "--control-topic", paramLabel = "T", order = 8,
        description = "with --mqtt: take reconfiguration requests on T, acknowledge on T/ack")
    String controlTopic;
    @Option(names = "--client-id", paramLabel = "ID", order = 9,
        description = "with --mqtt: the client id naming the persistent session (dataflow)")
    String clientId;
    private String onBadRecord;

    Live(Context ctx) {
      this.ctx = ctx;
    }

    @Option(names = "--on-bad-record", paramLabel = "fail|skip", order = 10,
        description = "with --mqtt: a bad payload fails the run (fail, the default) or is"
            + " skipped with a warning (skip)")
    void onBadRecord(String value) {
      if (!value.equals("fail") && !value.equals("skip")) {
        throw new UsageException(spec, "--on-bad-record must be fail or skip, not '"
            + value + "'");
      }
      onBadRecord = value;
    }

    /** Not an option of live: named so that the error says where it belongs. */
    @Option(names = "--input-file", hidden = true, arity = "0..1")
    void inputFile(String ignored) {
      throw new UsageException(spec, "live reads stdin; --input-file is for run");
    }

    /** The options parsed (without {@code --mqtt}'s). */
    RunOptions options() {
      return common.options(null, null, 0, null);
    }

    @Override
    public Integer call() {
      RunOptions options = options();
      if (mqtt == null) {
        String needsMqtt = inputTopics != null ? "--input-topics"
            : outputTopics != null ? "--output-topics" : controlTopic != null ? "--control-topic"
            : clientId != null ? "--client-id" : onBadRecord != null ? "--on-bad-record" : null;
        if (needsMqtt != null) {
          throw new UsageException(spec, needsMqtt + " needs --mqtt tcp://HOST:PORT");
        }
        return Cli.liveCommand(options, ctx);
      }
      return Cli.liveMqttCommand(options, new Cli.Mqtt(mqtt, inputTopics, outputTopics,
          controlTopic, clientId, "skip".equals(onBadRecord)), ctx);
    }
  }

  @Command(name = "kafka", sortOptions = false, footer = EXIT_STATUS,
      customSynopsis = {"dataflow kafka SPEC --bootstrap HOST:PORT --input-topic T",
          "                    --output-topic O --group G [--key FIELD]",
          "                    [--control-topic C] [--instance NAME] [--drivers N]"},
      description = {"Runs the keyed pipeline on Kafka: one monitor per key of the records of"
          + " T (the record key, or FIELD of the JSON value), outputs to O, at-least-once"
          + " commits for the consumer group G (lane state in the topic G.state).",
          "Instances with the same group share the partitions. SIGTERM or Ctrl-C stops on one"
              + " deadline with a final commit.",
          "With --control-topic, reconfiguration requests on C are applied and acknowledged"
              + " on C.ack."})
  static final class Kafka implements Callable<Integer> {
    private final Context ctx;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "SPEC", description = "the specification file")
    Path specFile;
    @Option(names = "--bootstrap", paramLabel = "HOST:PORT", required = true, order = 1,
        description = "the Kafka brokers")
    String bootstrap;
    @Option(names = "--input-topic", paramLabel = "T", required = true, order = 2,
        description = "the topic of the ticks (JSON Lines tick format)")
    String inputTopic;
    @Option(names = "--output-topic", paramLabel = "O", required = true, order = 3,
        description = "the topic of the outputs, keyed by the monitor key")
    String outputTopic;
    @Option(names = "--group", paramLabel = "G", required = true, order = 4,
        description = "the consumer group")
    String group;
    @Option(names = "--key", paramLabel = "FIELD", order = 5,
        description = "the key is FIELD of each JSON value (default: the record key)")
    String key;
    @Option(names = "--control-topic", paramLabel = "C", order = 6,
        description = "read reconfiguration requests from C, acknowledge on C.ack")
    String controlTopic;
    @Option(names = "--instance", paramLabel = "NAME", order = 7,
        description = "this instance's name in thread names and acknowledgements (dataflow)")
    String instance = "dataflow";
    private int drivers = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 9,
        description = "print this help and exit")
    boolean help;

    Kafka(Context ctx) {
      this.ctx = ctx;
    }

    @Option(names = "--drivers", paramLabel = "N", order = 8,
        description = "N driver threads (cores - 1, at least 1)")
    void drivers(String value) {
      drivers = positive(spec, "--drivers", value);
    }

    @Override
    public Integer call() {
      return Cli.kafkaCommand(new Cli.KafkaRun(specFile, bootstrap, inputTopic, outputTopic,
          group, key, controlTopic, instance, drivers), ctx);
    }
  }

  /** {@code dataflow snapshot}: what a snapshot or checkpoint file holds. */
  @Command(name = "snapshot", customSynopsis = "dataflow snapshot show FILE",
      description = {"Inspects snapshot and checkpoint files."})
  static final class Snapshot implements Callable<Integer> {
    private final Context ctx;
    @Spec
    CommandSpec spec;

    Snapshot(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      throw new UsageException(spec, "snapshot needs a subcommand: show FILE");
    }
  }

  @Command(name = "show", footer = EXIT_STATUS, customSynopsis = "dataflow snapshot show FILE",
      description = {"Prints a monitor snapshot or a runtime checkpoint file as JSON."})
  static final class SnapshotShow implements Callable<Integer> {
    private final Context ctx;
    @Parameters(index = "0", paramLabel = "FILE", description = "the snapshot or checkpoint")
    Path file;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
    boolean help;

    SnapshotShow(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      return Cli.showSnapshot(file, ctx.out(), ctx.err());
    }
  }

  @Command(name = "check", footer = EXIT_STATUS, customSynopsis = "dataflow check SPEC",
      description = {"Compiles SPEC and reports the first error."})
  static final class Check implements Callable<Integer> {
    private final Context ctx;
    @Parameters(index = "0", paramLabel = "SPEC", description = "the specification file")
    Path specFile;
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 4,
        description = "print this help and exit")
    boolean help;

    Check(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      return Cli.checkCommand(specFile, ctx.out(), ctx.err());
    }
  }

  /** Reports an exception a command did not handle: status {@link Cli#FAILED}. */
  static int internalError(Exception ex, Context ctx) {
    ctx.out().flush();
    ctx.err().println("dataflow: internal error: " + ex);
    ex.printStackTrace(ctx.err());
    return Cli.FAILED;
  }
}
