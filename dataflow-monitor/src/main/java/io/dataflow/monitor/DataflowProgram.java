package io.dataflow.monitor;

import io.dataflow.core.RowLayout;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Canonical;
import io.dataflow.monitor.lang.CheckedSpec;
import io.dataflow.monitor.lang.Checker;
import io.dataflow.monitor.lang.CompileError;
import io.dataflow.monitor.lang.Compiler;
import io.dataflow.monitor.lang.TypingLevel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A compiled specification: immutable, shareable, and the template from which monitors are
 * made ({@link DataflowMonitor#create(DataflowProgram)}).
 *
 * <p>It knows its streams in declaration order, the evaluation order derived from same-tick
 * dependencies, the history depth of every stream (the largest offset read through
 * {@code name[n]}), a semantic fingerprint per stream and a definition key for the whole
 * program. Fingerprints and the key do not depend on layout, comments or declaration order:
 * the same definitions give the same key, which is what reconfiguration compares.
 *
 * <p>Thread-safety: immutable.
 */
public final class DataflowProgram {
  /** The role of a stream. */
  public enum Role {
    /** Supplied by the caller each tick. */
    INPUT,
    /** Computed and emitted. */
    OUTPUT,
    /** Computed, never emitted. */
    AUX
  }

  /**
   * One declared stream.
   *
   * @param name the stream name
   * @param role input, output or aux
   * @param declaredType the annotation as written ({@code Int}, {@code List<Float>}), or null
   * @param fingerprint the semantic fingerprint of the stream's definition (type and
   *     expression; for an input, its type)
   * @param historyDepth how many past samples the program reads ({@code name[n]})
   * @param index the stream's position in declaration order
   * @param location where the stream's equation starts (its declaration for an input)
   */
  public record StreamDefinition(String name, Role role, String declaredType, String fingerprint,
      int historyDepth, int index, SourceLocation location) {}

  private final String name;
  private final String source;
  private final TypingMode typingMode;
  private final List<StreamDefinition> streams;
  private final RowLayout inputs;
  private final RowLayout outputs;
  private final String definitionKey;
  private final List<String> evaluationOrder;

  /** The front end's output, from which monitors are built (immutable by convention). */
  final CheckedSpec spec;
  /** The definition key as a snapshot holds it (MonitorSnapshot.shortHash): made once. */
  final String snapshotKey;
  /** Per stream (by index), the fingerprint as a snapshot holds it. */
  final String[] snapshotFingerprints;
  /**
   * Whether a restore with this program's key reads a snapshot's bytes straight into the slots
   * (DataflowMonitor.restoreByPlan): until a stream turns out to have no walk plan (a list, a
   * call site, a dynamic body), when every later restore takes the records at once. Racy,
   * benign.
   */
  boolean restoresByPlan = true;
  /** The size of this program's last snapshot in bytes (a buffer size hint; racy, benign). */
  int snapshotSize;
  /** What a restore with this program's key reports (the same for every restore). */
  private ContextTransferReport retainedAll;
  /**
   * Whether a monitor logged that code generation refused this program: logged once per
   * program, not per monitor (DataflowMonitor).
   */
  final java.util.concurrent.atomic.AtomicBoolean generationRefusalLogged =
      new java.util.concurrent.atomic.AtomicBoolean();

  private DataflowProgram(String source, TypingMode typingMode, CheckedSpec spec) {
    this.name = spec.file();
    this.source = source;
    this.typingMode = typingMode;
    this.spec = spec;
    int n = spec.streams().size();
    List<StreamDefinition> defs = new ArrayList<>(n);
    List<String> in = new ArrayList<>();
    List<String> out = new ArrayList<>();
    for (Checker.Stream s : spec.streams()) {
      Role role = s.kind() == Ast.StreamKind.IN ? Role.INPUT
          : s.kind() == Ast.StreamKind.OUT ? Role.OUTPUT : Role.AUX;
      String typeText = s.declared() == null ? null : s.declared().toString();
      String canonical = s.equation() == null ? "input"
          : Canonical.print(s.equation().expr());
      String fingerprint = Canonical.hash((typeText == null ? "_" : typeText) + "|" + canonical);
      defs.add(new StreamDefinition(s.name(), role, typeText, fingerprint,
          spec.historyDepth()[s.index()], s.index(), spec.location(s.index())));
      if (role == Role.INPUT) {
        in.add(s.name());
      } else if (role == Role.OUTPUT) {
        out.add(s.name());
      }
    }
    this.streams = List.copyOf(defs);
    this.inputs = RowLayout.of(in);
    this.outputs = RowLayout.of(out);
    List<String> order = new ArrayList<>();
    for (int i : spec.order()) {
      if (spec.streams().get(i).equation() != null) {
        order.add(spec.streams().get(i).name());
      }
    }
    this.evaluationOrder = List.copyOf(order);
    this.definitionKey = definitionKey(typingMode, defs);
    this.snapshotKey = MonitorSnapshot.shortHash(definitionKey);
    this.snapshotFingerprints = new String[n];
    for (StreamDefinition d : defs) {
      snapshotFingerprints[d.index()] = MonitorSnapshot.shortFingerprint(d.fingerprint());
    }
  }

  /**
   * {@code ContextTransferReport.retainedAll(this)}, built once. Racy on purpose: threads that
   * race build equal reports, and a record of final fields is safely published without a lock.
   */
  ContextTransferReport retainedAll() {
    ContextTransferReport r = retainedAll;
    if (r == null) {
      r = ContextTransferReport.retainedAll(this);
      retainedAll = r;
    }
    return r;
  }

  private static String definitionKey(TypingMode mode, List<StreamDefinition> defs) {
    List<StreamDefinition> sorted = new ArrayList<>(defs);
    sorted.sort(Comparator.comparing(StreamDefinition::name));
    StringBuilder sb = new StringBuilder(mode.name());
    for (StreamDefinition d : sorted) {
      sb.append('\n').append(d.name()).append('|').append(d.role()).append('|')
          .append(d.fingerprint());
    }
    return Canonical.hash(sb.toString());
  }

  /**
   * Compiles a specification with gradual typing.
   *
   * @param name the file name used in error messages ({@code spec.dsrv})
   * @param source the specification text
   * @throws SpecException when the specification does not compile
   */
  public static DataflowProgram compile(String name, String source) {
    return compile(name, source, TypingMode.GRADUAL);
  }

  /**
   * Compiles a specification with the given typing mode.
   *
   * @throws SpecException when the specification does not compile
   */
  public static DataflowProgram compile(String name, String source, TypingMode mode) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(mode, "mode");
    TypingLevel typing = switch (mode) {
      case UNTYPED -> TypingLevel.UNTYPED;
      case GRADUAL -> TypingLevel.GRADUAL;
      case STRICT -> TypingLevel.STRICT;
    };
    try {
      return new DataflowProgram(source, mode, Compiler.compile(name, source, typing));
    } catch (CompileError e) {
      throw SpecException.of(e);
    } catch (StackOverflowError e) {
      // The parser's limits should prevent this; compiling is pure, so nothing is left behind.
      throw new SpecException(new io.dataflow.core.SourceLocation(name, 1, 1),
          "the specification is nested too deeply to compile on this thread's stack");
    }
  }

  /** The name given at compile time (used in messages). */
  public String name() {
    return name;
  }

  /** The specification text. */
  public String source() {
    return source;
  }

  /** The typing mode the program was compiled with. */
  public TypingMode typingMode() {
    return typingMode;
  }

  /** Every stream in declaration order. */
  public List<StreamDefinition> streams() {
    return streams;
  }

  /** The stream with this name, if declared. */
  public Optional<StreamDefinition> stream(String streamName) {
    Integer i = spec.byName().get(streamName);
    return i == null ? Optional.empty() : Optional.of(streams.get(i));
  }

  /** The input streams in declaration order (the layout of an input row). */
  public RowLayout inputs() {
    return inputs;
  }

  /** The output streams in declaration order (the layout of an output row). */
  public RowLayout outputs() {
    return outputs;
  }

  /**
   * A key that is equal for two programs exactly when they define the same streams with the
   * same roles, types and semantic fingerprints, whatever their layout or declaration order.
   */
  public String definitionKey() {
    return definitionKey;
  }

  /** The computed streams in the order a tick evaluates them. */
  public List<String> evaluationOrder() {
    return evaluationOrder;
  }

  @Override
  public String toString() {
    return "DataflowProgram[" + name + ", key=" + definitionKey + "]";
  }
}
