package io.dataflow.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A valid specification made by {@link SpecGenerator}: typed inputs and computed
 * {@code out}/{@code aux} streams, rendered as specification text with or without type
 * annotations and in a seeded layout (declaration order, inline or separate equations,
 * comments, {@code aux} or {@code var}).
 *
 * <p>Every rendering of one spec defines the same streams with the same expressions, so it
 * has the same semantics; outputs are always declared in the order of {@link #outputs()},
 * so every rendering also prints its outputs in the same order. Each computed stream reads in
 * the same tick only inputs and streams generated before it ({@link #computed()} order), so
 * there is no same-tick cycle; any stream, itself included, may be read under a positive
 * delay. Unless {@link #isRisky()}, evaluation over a trace of at most {@link #horizon()}
 * ticks whose values come from {@link TraceGenerator} (of the declared types) cannot raise a
 * runtime error: no division or remainder by anything but a non-zero literal, and every Int
 * expression is bounded (see {@link Stream#bound()}) far below overflow.
 *
 * <p>Thread-safety: immutable.
 */
public final class GeneratedSpec {
  /** The role of a stream. */
  public enum Role {
    /** An input. */
    IN,
    /** An emitted output. */
    OUT,
    /** A computed stream that is never emitted. */
    AUX
  }

  /** Which streams a rendering annotates with their type. */
  public enum Annotations {
    /** No annotation at all (gradual typing treats every stream as {@code Any}). */
    NONE,
    /** A seeded subset of the streams, fixed per spec (the default rendering). */
    SOME,
    /** Every stream, inputs included, with the type its expression certainly has. */
    ALL
  }

  /**
   * One stream.
   *
   * @param name the stream name
   * @param role input, output or aux
   * @param type the type every present value of the stream has
   * @param expression the equation's right-hand side (null for an input)
   * @param bound for an Int stream the largest absolute value it can take; for a Str stream
   *     the longest length in UTF-16 units, or {@link Long#MAX_VALUE} when unknown; else 0
   * @param refs every stream name the expression reads (same tick or delayed)
   */
  public record Stream(String name, Role role, StreamType type, String expression, long bound,
      Set<String> refs) {
    /** Validates and copies. */
    public Stream {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(type, "type");
      refs = refs == null ? Set.of() : Set.copyOf(refs);
      if ((role == Role.IN) != (expression == null)) {
        throw new IllegalArgumentException("an input has no expression, a computed stream has "
            + "one: " + name);
      }
    }

    /** The same stream with another role. */
    public Stream withRole(Role value) {
      return new Stream(name, value, type, expression, bound, refs);
    }
  }

  private final long seed;
  private final List<Stream> inputs;
  private final List<Stream> computed;
  private final Set<String> annotated;
  private final long layoutSeed;
  private final int horizon;
  private final boolean risky;

  GeneratedSpec(long seed, List<Stream> inputs, List<Stream> computed, Set<String> annotated,
      long layoutSeed, int horizon, boolean risky) {
    this.seed = seed;
    this.inputs = List.copyOf(inputs);
    this.computed = List.copyOf(computed);
    this.annotated = Set.copyOf(annotated);
    this.layoutSeed = layoutSeed;
    this.horizon = horizon;
    this.risky = risky;
  }

  /** The seed the spec was generated from. */
  public long seed() {
    return seed;
  }

  /** The inputs, in generation order. */
  public List<Stream> inputs() {
    return inputs;
  }

  /** The computed streams in generation order (a stream reads earlier ones in the same tick). */
  public List<Stream> computed() {
    return computed;
  }

  /** The output streams in declaration (and print) order. */
  public List<Stream> outputs() {
    List<Stream> out = new ArrayList<>();
    for (Stream s : computed) {
      if (s.role() == Role.OUT) {
        out.add(s);
      }
    }
    return out;
  }

  /** The names of the outputs in print order. */
  public List<String> outputNames() {
    return outputs().stream().map(Stream::name).toList();
  }

  /** The input names with their types, in generation order. */
  public Map<String, StreamType> inputTypes() {
    Map<String, StreamType> m = new LinkedHashMap<>();
    for (Stream s : inputs) {
      m.put(s.name(), s.type());
    }
    return Collections.unmodifiableMap(m);
  }

  /** Every stream, inputs first. */
  public List<Stream> streams() {
    List<Stream> all = new ArrayList<>(inputs);
    all.addAll(computed);
    return all;
  }

  /** A stream by name. */
  public Optional<Stream> stream(String name) {
    return streams().stream().filter(s -> s.name().equals(name)).findFirst();
  }

  /** The longest trace (in ticks) over which the Int bounds are guaranteed. */
  public int horizon() {
    return horizon;
  }

  /**
   * True when the spec may raise runtime errors on purpose (division or remainder by a
   * stream, unchecked products); such a spec is still well typed.
   */
  public boolean isRisky() {
    return risky;
  }

  /** The seed of the layout {@link #text()} uses. */
  public long layoutSeed() {
    return layoutSeed;
  }

  /** The same spec rendered in another layout (same definitions, same output order). */
  public GeneratedSpec withLayoutSeed(long value) {
    return new GeneratedSpec(seed, inputs, computed, annotated, value, horizon, risky);
  }

  GeneratedSpec withComputed(List<Stream> value, Set<String> annotatedNames) {
    return new GeneratedSpec(seed, inputs, value, annotatedNames, layoutSeed, horizon, risky);
  }

  Set<String> annotatedNames() {
    return annotated;
  }

  /** The default rendering: a seeded subset of the streams annotated (gradual typing). */
  public String text() {
    return text(Annotations.SOME);
  }

  /** Every stream annotated: compiles in strict mode, and untyped mode ignores the types. */
  public String annotatedText() {
    return text(Annotations.ALL);
  }

  /** No annotation at all. */
  public String unannotatedText() {
    return text(Annotations.NONE);
  }

  /** The rendering with the given annotations in this spec's layout. */
  public String text(Annotations annotations) {
    return render(annotations, layoutSeed, Set.of(), List.of());
  }

  /**
   * Renders the spec. {@code omitEquations} names streams declared without their equation;
   * {@code extraLines} are appended verbatim, one per line (both for broken variants).
   */
  String render(Annotations annotations, long layout, Set<String> omitEquations,
      List<String> extraLines) {
    SplittableRandom rnd = new SplittableRandom(layout);
    List<Stream> all = streams();
    List<Stream> order = new ArrayList<>(all);
    Collections.shuffle(order, new java.util.Random(rnd.nextLong()));
    // Keep the outputs in their canonical relative order: they print in declaration order.
    List<Stream> outs = outputs();
    int k = 0;
    for (int i = 0; i < order.size(); i++) {
      if (order.get(i).role() == Role.OUT) {
        order.set(i, outs.get(k++));
      }
    }
    List<String> lines = new ArrayList<>();
    List<String> equations = new ArrayList<>();
    for (Stream s : order) {
      boolean annotate = annotations == Annotations.ALL
          || (annotations == Annotations.SOME && annotated.contains(s.name()));
      StringBuilder decl = new StringBuilder();
      decl.append(keyword(s.role(), rnd)).append(' ').append(s.name());
      if (annotate) {
        decl.append(rnd.nextInt(4) == 0 ? " :" : ":").append(' ').append(s.type().annotation());
      }
      boolean omitted = omitEquations.contains(s.name());
      if (s.role() != Role.IN && !omitted) {
        if (rnd.nextInt(10) < 3) {
          decl.append(" = ").append(s.expression());
        } else {
          equations.add(s.name() + " = " + s.expression());
        }
      }
      if (rnd.nextInt(8) == 0) {
        decl.append("  // ").append(s.role().name().toLowerCase(java.util.Locale.ROOT));
      }
      lines.add(decl.toString());
    }
    for (String eq : equations) {
      lines.add(rnd.nextInt(3) == 0 ? rnd.nextInt(lines.size() + 1) : lines.size(), eq);
    }
    if (rnd.nextInt(4) == 0) {
      lines.add(rnd.nextInt(lines.size() + 1), rnd.nextBoolean() ? "(* a block comment *)"
          : "(* a block comment\n   over two lines *)");
    }
    if (rnd.nextInt(6) == 0) {
      lines.add(rnd.nextInt(lines.size() + 1), "");
    }
    StringBuilder sb = new StringBuilder();
    sb.append("// generated, seed ").append(seed).append('\n');
    for (String l : lines) {
      sb.append(l).append('\n');
    }
    for (String l : extraLines) {
      sb.append(l).append('\n');
    }
    return sb.toString();
  }

  private static String keyword(Role role, SplittableRandom rnd) {
    switch (role) {
      case IN:
        return "in";
      case OUT:
        return "out";
      case AUX:
        return rnd.nextInt(4) == 0 ? "var" : "aux";
      default:
        throw new IllegalStateException("unknown role " + role);
    }
  }

  /** Equal when every stream, the annotated set, the layout and the settings are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof GeneratedSpec g && g.seed == seed && g.layoutSeed == layoutSeed
        && g.horizon == horizon && g.risky == risky && g.inputs.equals(inputs)
        && g.computed.equals(computed) && g.annotated.equals(annotated);
  }

  @Override
  public int hashCode() {
    return Objects.hash(seed, inputs, computed, annotated, layoutSeed, horizon, risky);
  }

  /** The default rendering. */
  @Override
  public String toString() {
    return text();
  }
}
