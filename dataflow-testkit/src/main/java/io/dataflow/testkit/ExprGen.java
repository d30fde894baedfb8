package io.dataflow.testkit;

import io.dataflow.core.ValueFormat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Generates the expression of one computed stream for {@link SpecGenerator}: well typed by
 * construction (every production has one static type, the one the checker infers), fully
 * parenthesised, and, unless risky, free of runtime errors.
 *
 * <h2>Why no Int expression overflows</h2>
 *
 * <p>Every Int expression carries a bound on its absolute value. Inputs are within
 * {@link TraceGenerator#INT_RANGE}; a stream read in the same tick, or under a delay when it was
 * generated earlier, has its own final bound; a stream generated later (or the stream itself)
 * read under a delay is assumed within {@link #LIMIT}, and every Int stream whose bound
 * exceeds {@link #LIMIT} is wrapped in {@code % 999983}, so the assumption holds by induction
 * over the ticks. Sub-expressions stay within {@link #BIG} (wrapped otherwise), products are
 * formed only when the bounds multiply below {@link #PRODUCT}, and {@code /} and {@code %}
 * divide only by non-zero literals. Accumulators {@code default(z[n], c) + e} grow by at most
 * the bound of {@code e} per tick, so they are bounded over the spec's horizon.
 *
 * <p>Thread-safety: one thread (it owns a random generator).
 */
final class ExprGen {
  /** Every Int stream stays within this absolute value. */
  static final long LIMIT = 1_000_000L;
  /** The modulus that brings an Int stream within {@link #LIMIT}. */
  static final long WRAP = 999_983L;
  /** Every Int sub-expression stays within this absolute value. */
  static final long BIG = 1_000_000_000_000L;
  /** A product is formed only when the operand bounds multiply below this. */
  static final long PRODUCT = 1_000_000_000_000_000L;
  /** The longest string a concatenation may build. */
  static final long STR_LIMIT = 4_000L;
  /** An unknown bound. */
  static final long UNBOUNDED = Long.MAX_VALUE;

  private static final String[] STR_ALPHABET = {"a", "b", "z", "A", " ", "\u00e9", "\uff5a",
      "\ud83d\ude00", "\"", "\\", "\n", "\t", "'"};

  /** An expression: its text, its static type, and its bound. */
  record E(String text, StreamType type, long bound) {}

  /** A stream an expression may read: in the same tick, or only under a delay. */
  record Ref(String name, StreamType type, long bound) {}

  private final SplittableRandom rnd;
  private final boolean risky;
  private final int horizon;
  private final List<Ref> sameTick;
  private final int inputCount;
  private final List<Ref> delayed;
  private final String self;
  private final Set<String> refs = new LinkedHashSet<>();

  /** {@code sameTick} starts with the {@code inputCount} inputs. */
  ExprGen(SplittableRandom rnd, boolean risky, int horizon, List<Ref> sameTick, int inputCount,
      List<Ref> delayed, String self) {
    this.rnd = rnd;
    this.risky = risky;
    this.horizon = horizon;
    this.sameTick = sameTick;
    this.inputCount = inputCount;
    this.delayed = delayed;
    this.self = self;
  }

  /** The names read by the expressions generated so far. */
  Set<String> refs() {
    return refs;
  }

  /** The whole right-hand side of a stream of type {@code t}. */
  E top(StreamType t, int depth) {
    E e = rnd.nextInt(5) == 0 ? accumulator(t, depth) : gen(t, depth);
    if (t == StreamType.INT && e.bound() > LIMIT) {
      e = new E("(" + e.text() + " % " + WRAP + ")", t, WRAP - 1);
    }
    return e;
  }

  /** Self-reference under a delay: a running sum, product, concatenation or toggle. */
  private E accumulator(StreamType t, int depth) {
    int n = 1 + rnd.nextInt(2);
    E body = gen(t, Math.max(0, depth - 1));
    refs.add(self);
    String past = self + "[" + n + "]";
    switch (t) {
      case INT: {
        E c = intLiteral();
        String op = rnd.nextBoolean() ? " + " : " - ";
        long bound = sat(c.bound(), satMul(horizon, body.bound()));
        return new E("(default(" + past + ", " + c.text() + ")" + op + body.text() + ")", t,
            bound);
      }
      case FLOAT: {
        String op = rnd.nextInt(3) == 0 ? " * " : " + ";
        return new E("(default(" + past + ", " + floatLiteral().text() + ")" + op + body.text()
            + ")", t, 0);
      }
      case STR: {
        E c = strLiteral();
        long bound = sat(c.bound(), satMul(horizon, body.bound()));
        if (bound > STR_LIMIT) {
          return gen(t, depth);
        }
        return new E("(default(" + past + ", " + c.text() + ") ++ " + body.text() + ")", t,
            bound);
      }
      default:
        return new E("(default(" + past + ", " + boolLiteral().text() + ") != " + body.text()
            + ")", t, 0);
    }
  }

  /** An expression of type {@code t} at most {@code depth} operators deep. */
  E gen(StreamType t, int depth) {
    if (depth <= 0 || rnd.nextInt(6) == 0) {
      return leaf(t);
    }
    int d = depth - 1;
    int shared = rnd.nextInt(14);
    switch (shared) {
      case 0:
        return ifThenElse(t, d);
      case 1:
      case 2:
        return twoArgs(rnd.nextInt(3) == 0 ? "init" : rnd.nextInt(2) == 0 ? "update" : "default",
            t, d);
      case 3:
        return latch(t, d);
      case 4:
        E a = gen(t, d);
        return new E("(" + a.text() + ")[" + (1 + rnd.nextInt(2)) + "]", t, a.bound());
      default:
        break;
    }
    switch (t) {
      case INT:
        return intOp(d);
      case FLOAT:
        return floatOp(d);
      case BOOL:
        return boolOp(d);
      default:
        return strOp(d);
    }
  }

  // ---------------------------------------------------------------- per type

  private E intOp(int d) {
    int choice = rnd.nextInt(risky ? 12 : 9);
    switch (choice) {
      case 0:
      case 1: {
        E a = gen(StreamType.INT, d);
        E b = gen(StreamType.INT, d);
        String op = rnd.nextBoolean() ? " + " : " - ";
        return fit(new E("(" + a.text() + op + b.text() + ")", StreamType.INT,
            sat(a.bound(), b.bound())));
      }
      case 2: {
        E a = gen(StreamType.INT, d);
        E b = gen(StreamType.INT, d);
        while (satMul(a.bound(), b.bound()) > PRODUCT) {
          if (a.bound() >= b.bound()) {
            a = mod(a, 1009);
          } else {
            b = mod(b, 1009);
          }
        }
        return fit(new E("(" + a.text() + " * " + b.text() + ")", StreamType.INT,
            satMul(a.bound(), b.bound())));
      }
      case 3: {
        E a = gen(StreamType.INT, d);
        long k = nonZero(13);
        return new E("(" + a.text() + " / " + intText(k) + ")", StreamType.INT, a.bound());
      }
      case 4: {
        E a = gen(StreamType.INT, d);
        long k = nonZero(13);
        return new E("(" + a.text() + " % " + intText(k) + ")", StreamType.INT,
            Math.min(a.bound(), Math.abs(k) - 1));
      }
      case 5: {
        E a = gen(StreamType.INT, d);
        return new E(rnd.nextBoolean() ? "(-" + a.text() + ")" : "abs(" + a.text() + ")",
            StreamType.INT, a.bound());
      }
      case 6: {
        E a = gen(StreamType.INT, d);
        int k = rnd.nextInt(4);
        while (pow(a.bound(), k) > BIG) {
          a = mod(a, 101);
        }
        return new E("(" + a.text() + " ** " + k + ")", StreamType.INT, pow(a.bound(), k));
      }
      case 7:
      case 8:
        return leaf(StreamType.INT);
      default: {
        // Risky: division or remainder by anything, or a product without a bound check.
        E a = gen(StreamType.INT, d);
        E b = gen(StreamType.INT, d);
        String op = choice == 9 ? " / " : choice == 10 ? " % " : " * ";
        return new E("(" + a.text() + op + b.text() + ")", StreamType.INT,
            Math.min(BIG, choice == 11 ? satMul(a.bound(), b.bound()) : a.bound()));
      }
    }
  }

  private E floatOp(int d) {
    switch (rnd.nextInt(7)) {
      case 0:
      case 1: {
        // Int with Float promotes to Float; division and remainder by zero are IEEE.
        int shape = rnd.nextInt(3);
        E a = gen(shape == 2 ? StreamType.INT : StreamType.FLOAT, d);
        E b = gen(shape == 1 ? StreamType.INT : StreamType.FLOAT, d);
        String[] ops = {" + ", " - ", " * ", " / ", " % "};
        return new E("(" + a.text() + ops[rnd.nextInt(ops.length)] + b.text() + ")",
            StreamType.FLOAT, 0);
      }
      case 2: {
        E a = gen(StreamType.FLOAT, d);
        return new E(rnd.nextBoolean() ? "(-" + a.text() + ")" : "abs(" + a.text() + ")",
            StreamType.FLOAT, 0);
      }
      case 3: {
        String[] fns = {"sqrt", "sin", "cos", "tan"};
        E a = gen(rnd.nextBoolean() ? StreamType.INT : StreamType.FLOAT, d);
        return new E(fns[rnd.nextInt(fns.length)] + "(" + a.text() + ")", StreamType.FLOAT, 0);
      }
      case 4: {
        E a = gen(StreamType.FLOAT, d);
        String exponent = rnd.nextBoolean() ? String.valueOf(rnd.nextInt(4)) : "0.5";
        return new E("(" + a.text() + " ** " + exponent + ")", StreamType.FLOAT, 0);
      }
      default:
        return leaf(StreamType.FLOAT);
    }
  }

  private E boolOp(int d) {
    switch (rnd.nextInt(7)) {
      case 0:
      case 1:
        return comparison(d);
      case 2: {
        E a = gen(StreamType.BOOL, d);
        E b = gen(StreamType.BOOL, d);
        String[] ops = {" && ", " and ", " || ", " or ", " => "};
        return new E("(" + a.text() + ops[rnd.nextInt(ops.length)] + b.text() + ")",
            StreamType.BOOL, 0);
      }
      case 3: {
        E a = gen(StreamType.BOOL, d);
        return new E(rnd.nextBoolean() ? "(!" + a.text() + ")" : "(not " + a.text() + ")",
            StreamType.BOOL, 0);
      }
      case 4: {
        E a = gen(anyType(), d);
        return new E((rnd.nextBoolean() ? "is_defined(" : "when(") + a.text() + ")",
            StreamType.BOOL, 0);
      }
      default:
        return leaf(StreamType.BOOL);
    }
  }

  private E comparison(int d) {
    int shape = rnd.nextInt(10);
    StreamType l;
    StreamType r;
    if (shape < 5) {
      l = rnd.nextBoolean() ? StreamType.INT : StreamType.FLOAT;
      r = rnd.nextBoolean() ? StreamType.INT : StreamType.FLOAT;
    } else if (shape < 7) {
      l = StreamType.STR;
      r = StreamType.STR;
    } else if (shape < 8) {
      l = StreamType.BOOL;
      r = StreamType.BOOL;
    } else {
      // Equality is structural and type-sensitive: any two types may be compared.
      E a = gen(anyType(), d);
      E b = gen(anyType(), d);
      return new E("(" + a.text() + (rnd.nextBoolean() ? " == " : " != ") + b.text() + ")",
          StreamType.BOOL, 0);
    }
    E a = gen(l, d);
    E b = gen(r, d);
    String[] ops = {" < ", " <= ", " > ", " >= ", " == ", " != "};
    return new E("(" + a.text() + ops[rnd.nextInt(ops.length)] + b.text() + ")",
        StreamType.BOOL, 0);
  }

  private E strOp(int d) {
    if (rnd.nextInt(3) == 0) {
      return leaf(StreamType.STR);
    }
    E a = gen(StreamType.STR, d);
    E b = gen(StreamType.STR, d);
    long bound = sat(a.bound(), b.bound());
    if (bound > STR_LIMIT) {
      return rnd.nextBoolean() ? strLiteral() : a.bound() <= b.bound() ? a : b;
    }
    return new E("(" + a.text() + " ++ " + b.text() + ")", StreamType.STR, bound);
  }

  // ---------------------------------------------------------------- shared forms

  private E ifThenElse(StreamType t, int d) {
    E c = gen(StreamType.BOOL, d);
    E a = gen(t, d);
    E b = gen(t, d);
    return new E("(if " + c.text() + " then " + a.text() + " else " + b.text() + ")", t,
        Math.max(a.bound(), b.bound()));
  }

  private E twoArgs(String fn, StreamType t, int d) {
    E a = gen(t, d);
    E b = gen(t, d);
    return new E(fn + "(" + a.text() + ", " + b.text() + ")", t,
        Math.max(a.bound(), b.bound()));
  }

  private E latch(StreamType t, int d) {
    E v = gen(t, d);
    E trigger = rnd.nextBoolean() ? leaf(anyType()) : gen(anyType(), d);
    return new E("latch(" + v.text() + ", " + trigger.text() + ")", t, v.bound());
  }

  // ---------------------------------------------------------------- leaves

  /** A literal, a stream read in the same tick, or a stream read under a delay. */
  E leaf(StreamType t) {
    int r = rnd.nextInt(20);
    List<Ref> now = ofType(sameTick, t);
    if (r < 12 && !now.isEmpty()) {
      // Inputs are where absence comes from: prefer them, so lifting is exercised.
      List<Ref> inputs = ofType(sameTick.subList(0, inputCount), t);
      List<Ref> from = inputs.isEmpty() || rnd.nextInt(3) == 0 ? now : inputs;
      Ref ref = from.get(rnd.nextInt(from.size()));
      refs.add(ref.name());
      return new E(ref.name() + (rnd.nextInt(10) == 0 ? "[0]" : ""), t, ref.bound());
    }
    List<Ref> past = ofType(delayed, t);
    if (r < 17 && !past.isEmpty()) {
      Ref ref = past.get(rnd.nextInt(past.size()));
      refs.add(ref.name());
      String text = ref.name() + "[" + (1 + rnd.nextInt(3)) + "]";
      if (rnd.nextInt(10) < 8) {
        E d = literal(t);
        return new E("default(" + text + ", " + d.text() + ")", t,
            Math.max(ref.bound(), d.bound()));
      }
      return new E(text, t, ref.bound());
    }
    return literal(t);
  }

  E literal(StreamType t) {
    switch (t) {
      case INT:
        return intLiteral();
      case FLOAT:
        return floatLiteral();
      case BOOL:
        return boolLiteral();
      default:
        return strLiteral();
    }
  }

  private E intLiteral() {
    int r = rnd.nextInt(20);
    long v = r < 14 ? rnd.nextInt(-5, 11) : r < 19 ? rnd.nextInt(-1000, 1001) : 0;
    return new E(intText(v), StreamType.INT, Math.abs(v));
  }

  private E floatLiteral() {
    int r = rnd.nextInt(10);
    String text;
    if (r == 0) {
      text = rnd.nextBoolean() ? "1e3" : "2.5e-3";
    } else {
      double v = rnd.nextInt(-200, 201) / 4.0;
      String abs = ValueFormat.formatFloat(Math.abs(v));
      text = v < 0 ? "(-" + abs + ")" : abs;
    }
    return new E(text, StreamType.FLOAT, 0);
  }

  private E boolLiteral() {
    return new E(rnd.nextBoolean() ? "true" : "false", StreamType.BOOL, 0);
  }

  private E strLiteral() {
    String s = randomString(rnd);
    return new E(specQuote(s, rnd), StreamType.STR, s.length());
  }

  /** A short string from an alphabet with quotes, escapes and non-BMP characters. */
  static String randomString(SplittableRandom rnd) {
    int n = rnd.nextInt(4);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(STR_ALPHABET[rnd.nextInt(STR_ALPHABET.length)]);
    }
    return sb.toString();
  }

  /** The longest string {@link #randomString} makes, in UTF-16 units. */
  static final int MAX_STR_UNITS = 6;

  /** A string literal with the specification's escapes ({@code \' } only sometimes). */
  static String specQuote(String s, SplittableRandom rnd) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\'':
          sb.append(rnd != null && rnd.nextBoolean() ? "\\'" : "'");
          break;
        default:
          sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  // ---------------------------------------------------------------- helpers

  private StreamType anyType() {
    StreamType[] all = StreamType.values();
    return all[rnd.nextInt(all.length)];
  }

  private static List<Ref> ofType(List<Ref> refs, StreamType t) {
    List<Ref> out = new ArrayList<>();
    for (Ref r : refs) {
      if (r.type() == t) {
        out.add(r);
      }
    }
    return out;
  }

  private long nonZero(int max) {
    long k = rnd.nextInt(1, max + 1);
    return rnd.nextInt(4) == 0 ? -k : k;
  }

  static String intText(long v) {
    return v < 0 ? "(-" + (-v) + ")" : Long.toString(v);
  }

  private static E mod(E a, long m) {
    return new E("(" + a.text() + " % " + m + ")", StreamType.INT, Math.min(a.bound(), m - 1));
  }

  private static E fit(E e) {
    return e.bound() > BIG ? mod(e, 1_000_003) : e;
  }

  static long sat(long a, long b) {
    long s = a + b;
    return s < 0 || s < a ? UNBOUNDED : s;
  }

  static long satMul(long a, long b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    return a > UNBOUNDED / b ? UNBOUNDED : a * b;
  }

  private static long pow(long base, int k) {
    long r = 1;
    for (int i = 0; i < k; i++) {
      r = satMul(r, base);
    }
    return r;
  }
}
