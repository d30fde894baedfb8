package io.dataflow.monitor;

import io.dataflow.core.RowLayout;
import io.dataflow.core.SourceLocation;
import io.dataflow.monitor.Ast.Expr;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
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

  // Compiler output used to build monitors (package-private, immutable by convention).
  final Checker.Result checked;
  final Map<Expr, Type> types;
  final boolean[] needsCheck;
  final Type[] streamTypes;
  final int[] inputIndex;
  final int[] outputIndex;
  final boolean hasDynamic;
  /** Whether any expression is a lambda (so function values can exist at run time). */
  final boolean hasLambda;

  DataflowProgram(String name, String source, TypingMode typingMode, Checker.Result checked,
      Map<Expr, Type> types, boolean[] needsCheck, boolean hasDynamic) {
    this.name = name;
    this.source = source;
    this.typingMode = typingMode;
    this.checked = checked;
    this.types = types;
    this.needsCheck = needsCheck;
    this.hasDynamic = hasDynamic;
    this.hasLambda = checked.streams().stream().anyMatch(st -> st.equation() != null
        && Compiler.containsLambda(st.equation().expr()));
    int n = checked.streams().size();
    this.streamTypes = new Type[n];
    List<StreamDefinition> defs = new ArrayList<>(n);
    List<String> in = new ArrayList<>();
    List<String> out = new ArrayList<>();
    List<Integer> inIdx = new ArrayList<>();
    List<Integer> outIdx = new ArrayList<>();
    for (Checker.Stream s : checked.streams()) {
      Type t = typingMode == TypingMode.UNTYPED || s.declared() == null ? Type.ANY : s.declared();
      streamTypes[s.index()] = t;
      Role role = s.kind() == Ast.StreamKind.IN ? Role.INPUT
          : s.kind() == Ast.StreamKind.OUT ? Role.OUTPUT : Role.AUX;
      String typeText = s.declared() == null ? null : s.declared().toString();
      String canonical = s.equation() == null ? "input"
          : Canonical.print(s.equation().expr());
      String fingerprint = Canonical.hash((typeText == null ? "_" : typeText) + "|" + canonical);
      Ast.Pos at = s.equation() != null ? s.equation().pos() : s.pos();
      defs.add(new StreamDefinition(s.name(), role, typeText, fingerprint,
          checked.historyDepth()[s.index()], s.index(),
          new SourceLocation(name, at.line(), at.column())));
      if (role == Role.INPUT) {
        in.add(s.name());
        inIdx.add(s.index());
      } else if (role == Role.OUTPUT) {
        out.add(s.name());
        outIdx.add(s.index());
      }
    }
    this.streams = List.copyOf(defs);
    this.inputs = RowLayout.of(in);
    this.outputs = RowLayout.of(out);
    this.inputIndex = inIdx.stream().mapToInt(Integer::intValue).toArray();
    this.outputIndex = outIdx.stream().mapToInt(Integer::intValue).toArray();
    List<String> order = new ArrayList<>();
    for (int i : checked.order()) {
      if (checked.streams().get(i).equation() != null) {
        order.add(checked.streams().get(i).name());
      }
    }
    this.evaluationOrder = List.copyOf(order);
    this.definitionKey = definitionKey(typingMode, defs);
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
    try {
      return Compiler.compile(name, source, mode);
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
    Integer i = checked.byName().get(streamName);
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
