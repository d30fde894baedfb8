package io.dataflow.testkit;

import io.dataflow.testkit.GeneratedSpec.Role;
import io.dataflow.testkit.GeneratedSpec.Stream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates random valid specifications from a seed, variants of them (one stream changed, an
 * output added or removed) for reconfiguration, and deliberately broken ones.
 *
 * <pre>{@code
 * SpecGenerator gen = new SpecGenerator(seed);
 * GeneratedSpec spec = gen.next();
 * DataflowProgram gradual = DataflowProgram.compile("gen.dsrv", spec.text());
 * DataflowProgram strict =
 *     DataflowProgram.compile("gen.dsrv", spec.annotatedText(), TypingMode.STRICT);
 * BrokenSpec broken = gen.broken();
 * }</pre>
 *
 * <p>The same seed and settings always give the same sequence of specs. A spec has one to
 * {@link #maxInputs(int)} typed inputs ({@code Int}, {@code Float}, {@code Bool}, sometimes
 * {@code Str}) and one to {@link #maxComputed(int)} computed streams using arithmetic, comparisons,
 * logic, {@code if}, {@code default}, {@code init}, {@code update}, {@code latch},
 * {@code is_defined}, {@code when}, delays {@code x[n]} (also of compound expressions) and
 * self-references under a delay such as {@code z = default(z[1], 0) + x}. See
 * {@link GeneratedSpec} for what a valid spec guarantees.
 *
 * <p>Thread-safety: one thread (it owns a random generator).
 */
public final class SpecGenerator {
  /** The longest trace, in ticks, a generated spec's bounds are computed for. */
  public static final int HORIZON = 200;

  private static final String[] INPUT_NAMES = {"x", "y", "speed", "t_in", "Temp", "_raw"};
  private static final String[] STREAM_NAMES = {"z", "acc", "flag", "msg", "Q", "_w", "sum",
      "ok"};

  private final long seed;
  private final SplittableRandom rnd;
  private int maxInputs = 3;
  private int maxComputed = 6;
  private int maxDepth = 3;
  private boolean strings = true;
  private double risky;

  /** A generator whose every choice follows from {@code seed}. */
  public SpecGenerator(long seed) {
    this.seed = seed;
    this.rnd = new SplittableRandom(seed);
  }

  /** At most this many inputs (default 3). */
  public SpecGenerator maxInputs(int value) {
    this.maxInputs = positive(value, "maxInputs");
    return this;
  }

  /** At most this many computed streams (default 6). */
  public SpecGenerator maxComputed(int value) {
    this.maxComputed = positive(value, "maxComputed");
    return this;
  }

  /** Expressions at most this many operators deep (default 3). */
  public SpecGenerator maxDepth(int value) {
    this.maxDepth = positive(value, "maxDepth");
    return this;
  }

  /** Whether Str inputs and streams occur (default true). */
  public SpecGenerator strings(boolean value) {
    this.strings = value;
    return this;
  }

  /**
   * The probability that a spec is risky (default 0): it may divide by a stream or multiply
   * without a bound, so evaluation may fail with a runtime error. Risky specs are well typed.
   */
  public SpecGenerator risky(double probability) {
    if (probability < 0 || probability > 1) {
      throw new IllegalArgumentException("risky must be a probability: " + probability);
    }
    this.risky = probability;
    return this;
  }

  /** The seed. */
  public long seed() {
    return seed;
  }

  /** The random source, for generators that share this one's sequence. */
  SplittableRandom random() {
    return rnd;
  }

  // ---------------------------------------------------------------- valid specs

  /** The next valid specification. */
  public GeneratedSpec next() {
    boolean isRisky = rnd.nextDouble() < risky;
    List<Stream> inputs = new ArrayList<>();
    int nIn = 1 + rnd.nextInt(maxInputs);
    for (int i = 0; i < nIn; i++) {
      inputs.add(new Stream(INPUT_NAMES[rnd.nextInt(INPUT_NAMES.length)] + i, Role.IN,
          inputType(), null, 0, null));
    }
    int nC = 1 + rnd.nextInt(maxComputed);
    List<String> names = new ArrayList<>();
    List<StreamType> types = new ArrayList<>();
    List<Role> roles = new ArrayList<>();
    for (int i = 0; i < nC; i++) {
      names.add(STREAM_NAMES[rnd.nextInt(STREAM_NAMES.length)] + (nIn + i));
      types.add(computedType());
      roles.add(rnd.nextInt(10) < 3 ? Role.AUX : Role.OUT);
    }
    if (!roles.contains(Role.OUT)) {
      roles.set(nC - 1, Role.OUT);
    }
    Set<String> annotated = new HashSet<>();
    for (Stream s : inputs) {
      if (rnd.nextBoolean()) {
        annotated.add(s.name());
      }
    }
    for (String n : names) {
      if (rnd.nextBoolean()) {
        annotated.add(n);
      }
    }
    List<Stream> computed = new ArrayList<>();
    for (int i = 0; i < nC; i++) {
      List<ExprGen.Ref> later = new ArrayList<>();
      for (int j = i; j < nC; j++) {
        later.add(new ExprGen.Ref(names.get(j), types.get(j), assumedBound(types.get(j))));
      }
      ExprGen g = context(inputs, computed, later, names.get(i), isRisky);
      ExprGen.E e = g.top(types.get(i), 1 + rnd.nextInt(maxDepth));
      computed.add(new Stream(names.get(i), roles.get(i), types.get(i), e.text(), e.bound(),
          g.refs()));
    }
    return new GeneratedSpec(seed, inputs, computed, annotated, rnd.nextLong(), HORIZON,
        isRisky);
  }

  /**
   * The spec with the expression of one computed stream replaced by a different one of the
   * same type (a Transfer for the reconfiguration planner: the definition key changes).
   */
  public GeneratedSpec changeOneStream(GeneratedSpec spec) {
    List<Stream> computed = new ArrayList<>(spec.computed());
    int i = rnd.nextInt(computed.size());
    Stream old = computed.get(i);
    List<ExprGen.Ref> later = new ArrayList<>();
    for (int j = i; j < computed.size(); j++) {
      Stream s = computed.get(j);
      later.add(new ExprGen.Ref(s.name(), s.type(), assumedBound(s.type())));
    }
    for (int attempt = 0; attempt < 20; attempt++) {
      ExprGen g = context(spec.inputs(), computed.subList(0, i), later, old.name(),
          spec.isRisky());
      ExprGen.E e = g.top(old.type(), 1 + rnd.nextInt(maxDepth));
      if (old.type() == StreamType.INT && e.bound() > old.bound()) {
        // Keep the bound the later streams were generated with.
        e = new ExprGen.E("(" + e.text() + " % " + (old.bound() + 1) + ")", StreamType.INT,
            old.bound());
      }
      if (e.bound() > old.bound() && old.type() == StreamType.STR
          || e.text().equals(old.expression())) {
        continue;
      }
      computed.set(i, new Stream(old.name(), old.role(), old.type(), e.text(), e.bound(),
          g.refs()));
      return spec.withComputed(computed, spec.annotatedNames());
    }
    ExprGen.E fallback = new ExprGen.E("init(" + old.expression() + ", "
        + literalText(old.type()) + ")", old.type(), old.bound());
    computed.set(i, new Stream(old.name(), old.role(), old.type(), fallback.text(),
        fallback.bound(), old.refs()));
    return spec.withComputed(computed, spec.annotatedNames());
  }

  /** The spec with one more output, which may read every existing stream. */
  public GeneratedSpec addOutput(GeneratedSpec spec) {
    Set<String> taken = new HashSet<>();
    spec.streams().forEach(s -> taken.add(s.name()));
    String name;
    int k = spec.streams().size();
    do {
      name = STREAM_NAMES[rnd.nextInt(STREAM_NAMES.length)] + k++;
    } while (taken.contains(name));
    StreamType type = computedType();
    List<ExprGen.Ref> self = List.of(new ExprGen.Ref(name, type, assumedBound(type)));
    ExprGen g = context(spec.inputs(), spec.computed(), self, name, spec.isRisky());
    ExprGen.E e = g.top(type, 1 + rnd.nextInt(maxDepth));
    List<Stream> computed = new ArrayList<>(spec.computed());
    computed.add(new Stream(name, Role.OUT, type, e.text(), e.bound(), g.refs()));
    Set<String> annotated = new HashSet<>(spec.annotatedNames());
    if (rnd.nextBoolean()) {
      annotated.add(name);
    }
    return spec.withComputed(computed, annotated);
  }

  /**
   * The spec with one output fewer: an output no other stream reads is removed, one that is
   * read becomes an {@code aux} stream.
   */
  public GeneratedSpec removeOutput(GeneratedSpec spec) {
    List<Stream> outs = spec.outputs();
    Stream victim = outs.get(rnd.nextInt(outs.size()));
    boolean read = false;
    for (Stream s : spec.computed()) {
      if (s != victim && s.refs().contains(victim.name())) {
        read = true;
      }
    }
    List<Stream> computed = new ArrayList<>();
    for (Stream s : spec.computed()) {
      if (s != victim) {
        computed.add(s);
      } else if (read) {
        computed.add(s.withRole(Role.AUX));
      }
    }
    return spec.withComputed(computed, spec.annotatedNames());
  }

  // ---------------------------------------------------------------- broken specs

  /** A broken specification of a random kind. */
  public BrokenSpec broken() {
    BrokenSpec.Kind[] kinds = BrokenSpec.Kind.values();
    return broken(kinds[rnd.nextInt(kinds.length)]);
  }

  /** A broken specification of the given kind. */
  public BrokenSpec broken(BrokenSpec.Kind kind) {
    return new BrokenSpecs(rnd).make(kind, next());
  }

  // ---------------------------------------------------------------- helpers

  private ExprGen context(List<Stream> inputs, List<Stream> before, List<ExprGen.Ref> later,
      String self, boolean isRisky) {
    List<ExprGen.Ref> sameTick = new ArrayList<>();
    for (Stream s : inputs) {
      sameTick.add(new ExprGen.Ref(s.name(), s.type(), inputBound(s.type())));
    }
    for (Stream s : before) {
      sameTick.add(new ExprGen.Ref(s.name(), s.type(), s.bound()));
    }
    List<ExprGen.Ref> delayed = new ArrayList<>(sameTick);
    delayed.addAll(later);
    return new ExprGen(rnd, isRisky, HORIZON, sameTick, inputs.size(), delayed, self);
  }

  private static long inputBound(StreamType t) {
    switch (t) {
      case INT:
        return TraceGenerator.INT_RANGE;
      case STR:
        return ExprGen.MAX_STR_UNITS;
      default:
        return 0;
    }
  }

  private static long assumedBound(StreamType t) {
    switch (t) {
      case INT:
        return ExprGen.LIMIT;
      case STR:
        return ExprGen.UNBOUNDED;
      default:
        return 0;
    }
  }

  private StreamType inputType() {
    int r = rnd.nextInt(20);
    if (r < 9) {
      return StreamType.INT;
    }
    if (r < 13) {
      return StreamType.FLOAT;
    }
    if (r < 17 || !strings) {
      return StreamType.BOOL;
    }
    return StreamType.STR;
  }

  private StreamType computedType() {
    int r = rnd.nextInt(20);
    if (r < 8) {
      return StreamType.INT;
    }
    if (r < 12) {
      return StreamType.FLOAT;
    }
    if (r < 17 || !strings) {
      return StreamType.BOOL;
    }
    return StreamType.STR;
  }

  private static String literalText(StreamType t) {
    switch (t) {
      case INT:
        return "0";
      case FLOAT:
        return "0.0";
      case BOOL:
        return "false";
      default:
        return "\"\"";
    }
  }

  private static int positive(int value, String what) {
    if (value < 1) {
      throw new IllegalArgumentException(what + " must be at least 1: " + value);
    }
    return value;
  }
}
