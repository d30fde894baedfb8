package io.dataflow.monitor.lang;

import io.dataflow.core.SourceLocation;
import io.dataflow.monitor.lang.Ast.Expr;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * A specification that passed the front end ({@link Compiler#compile}): its streams in
 * declaration order with their equations, the same-tick dependencies and the evaluation order,
 * the history depth of every stream, and the static type of every expression. What the API's
 * {@code DataflowProgram} wraps and the evaluator builds monitors from.
 *
 * <p>Thread-safety: immutable by convention (the arrays are shared, never written).
 */
public final class CheckedSpec {
  private final String file;
  private final TypingLevel typing;
  private final Checker.Result checked;
  private final Map<Expr, Type> types;
  private final boolean[] needsCheck;
  private final Type[] streamTypes;
  private final int[] inputIndex;
  private final int[] outputIndex;
  private final boolean hasDynamic;
  private final boolean hasLambda;
  /** Per stream, whether its equation has a lambda call site (see hasCallSite). */
  private final boolean[] callSites;
  /** What the evaluator derives from this specification alone (see evaluatorShape). */
  private volatile Object evaluatorShape;

  CheckedSpec(String file, TypingLevel typing, Checker.Result checked, Map<Expr, Type> types,
      boolean[] needsCheck) {
    this.file = file;
    this.typing = typing;
    this.checked = checked;
    this.types = types;
    this.needsCheck = needsCheck;
    int n = checked.streams().size();
    this.streamTypes = new Type[n];
    List<Integer> in = new ArrayList<>();
    List<Integer> out = new ArrayList<>();
    boolean dynamic = false;
    boolean lambda = false;
    this.callSites = new boolean[n];
    for (Checker.Stream s : checked.streams()) {
      streamTypes[s.index()] = typing == TypingLevel.UNTYPED || s.declared() == null ? Type.ANY
          : s.declared();
      if (s.kind() == Ast.StreamKind.IN) {
        in.add(s.index());
      } else if (s.kind() == Ast.StreamKind.OUT) {
        out.add(s.index());
      }
      if (s.equation() != null) {
        dynamic |= Compiler.containsDynamic(s.equation().expr());
        lambda |= Compiler.containsLambda(s.equation().expr());
        callSites[s.index()] = Compiler.containsCallSite(s.equation().expr());
      }
    }
    this.inputIndex = in.stream().mapToInt(Integer::intValue).toArray();
    this.outputIndex = out.stream().mapToInt(Integer::intValue).toArray();
    this.hasDynamic = dynamic;
    this.hasLambda = lambda;
  }

  /**
   * Whether stream {@code index}'s equation has a lambda call site ({@code Compiler
   * .containsCallSite}), found once per specification: every evaluator built for it (each
   * restore) asks.
   */
  public boolean hasCallSite(int index) {
    return callSites[index];
  }

  /**
   * Machinery for the evaluator: what it derives from this specification alone, computed by
   * {@code derive} on first use and kept, since every evaluator built for the specification
   * (each restore) needs it. {@code derive} must return an immutable value; two threads may
   * both compute it the first time, one result is kept.
   */
  public Object evaluatorShape(java.util.function.Function<CheckedSpec, Object> derive) {
    Object s = evaluatorShape;
    if (s == null) {
      s = derive.apply(this);
      evaluatorShape = s;
    }
    return s;
  }

  /** The file name used in messages and source locations. */
  public String file() {
    return file;
  }

  /** How strictly the specification was type-checked. */
  public TypingLevel typing() {
    return typing;
  }

  /** Every stream in declaration order (its index is its position). */
  public List<Checker.Stream> streams() {
    return checked.streams();
  }

  /** Stream name to index. */
  public Map<String, Integer> byName() {
    return checked.byName();
  }

  /** Per stream, how many past samples the specification reads ({@code name[n]}). */
  public int[] historyDepth() {
    return checked.historyDepth();
  }

  /** Every stream index in evaluation order (inputs included; they have no equation). */
  public int[] order() {
    return checked.order();
  }

  /** Per stream, the streams its equation reads in the same tick. */
  public List<BitSet> sameTickDeps() {
    return checked.sameTickDeps();
  }

  /** The static type of every expression of every equation (by identity). */
  public Map<Expr, Type> types() {
    return types;
  }

  /** Whether a stream's value must be checked against its annotation at run time. */
  public boolean needsCheck(int stream) {
    return needsCheck[stream];
  }

  /** A stream's type as the evaluator checks it: the annotation, or {@code Any}. */
  public Type streamType(int stream) {
    return streamTypes[stream];
  }

  /** The input streams' indices in declaration order (the slots of an input row). */
  public int[] inputIndex() {
    return inputIndex;
  }

  /** The output streams' indices in declaration order (the slots of an output row). */
  public int[] outputIndex() {
    return outputIndex;
  }

  /** Whether a stream is an input. */
  public boolean isInput(int stream) {
    return checked.streams().get(stream).kind() == Ast.StreamKind.IN;
  }

  /** Where a stream's equation starts (its declaration for an input). */
  public SourceLocation location(int stream) {
    Checker.Stream s = checked.streams().get(stream);
    Ast.Pos at = s.equation() != null ? s.equation().pos() : s.pos();
    return new SourceLocation(file, at.line(), at.column());
  }

  /** Whether any equation contains a dynamic property. */
  public boolean hasDynamic() {
    return hasDynamic;
  }

  /** Whether any equation contains a lambda (so function values can exist at run time). */
  public boolean hasLambda() {
    return hasLambda;
  }
}
