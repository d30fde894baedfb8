package io.dataflow.testkit;

import io.dataflow.testkit.BrokenSpec.Kind;
import io.dataflow.testkit.GeneratedSpec.Annotations;
import io.dataflow.testkit.GeneratedSpec.Role;
import io.dataflow.testkit.GeneratedSpec.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Adds one defect to a valid spec and works out where the compiler must report it. Every
 * injected name carries a numeric tag so it is unique in the text; the expected location is
 * found by searching the rendered text for it.
 *
 * <p>Thread-safety: one thread.
 */
final class BrokenSpecs {
  private final SplittableRandom rnd;
  private final int tag;

  BrokenSpecs(SplittableRandom rnd) {
    this.rnd = rnd;
    this.tag = rnd.nextInt(1000);
  }

  BrokenSpec make(Kind kind, GeneratedSpec base) {
    switch (kind) {
      case UNKNOWN_NAME:
        return unknownName(base);
      case CYCLE:
        return cycle(base);
      case SELF_REFERENCE:
        return selfReference(base);
      case MISSING_EQUATION:
        return missingEquation(base);
      case DUPLICATE:
        return duplicate(base);
      case TYPE_ERROR:
        return typeError(base);
      case SYNTAX_ERROR:
        return syntaxError(base);
      default:
        throw new IllegalStateException("unknown kind " + kind);
    }
  }

  private BrokenSpec unknownName(GeneratedSpec base) {
    String unknown = "nosuch_" + tag;
    String fragment = "unknown stream '" + unknown + "'";
    if (rnd.nextBoolean()) {
      // Inside an existing equation: default(unknown, e) keeps the equation well typed.
      List<Stream> computed = new ArrayList<>(base.computed());
      int i = rnd.nextInt(computed.size());
      Stream s = computed.get(i);
      String read = rnd.nextBoolean() ? unknown : unknown + "[1]";
      computed.set(i, new Stream(s.name(), s.role(), s.type(), "default(" + read + ", "
          + s.expression() + ")", s.bound(), s.refs()));
      String text = base.withComputed(computed, base.annotatedNames()).text();
      return at(Kind.UNKNOWN_NAME, text, unknown, 0, fragment, base);
    }
    String bad = "bad_" + tag;
    String expr = pick("(" + unknown + " + 1)", "default(" + unknown + "[2], 0)",
        "(if " + unknown + " then 1 else 2)");
    String text = render(base, List.of("aux " + bad, bad + " = " + expr));
    return at(Kind.UNKNOWN_NAME, text, unknown, 0, fragment, base);
  }

  private BrokenSpec cycle(GeneratedSpec base) {
    int n = 2 + rnd.nextInt(2);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add("aux c" + i + "_" + tag);
    }
    for (int i = 0; i < n; i++) {
      String next = "c" + ((i + 1) % n) + "_" + tag;
      // A compound delay and [0] read in the same tick, so they do not break a cycle.
      String expr = pick("(" + next + " + 1)", "(" + next + " + 1)[1]", next + "[0]",
          "default(" + next + ", 0)");
      lines.add("c" + i + "_" + tag + " = " + expr);
    }
    String text = render(base, lines);
    return at(Kind.CYCLE, text, "c0_" + tag + " = ", 0, "same-tick dependency cycle", base);
  }

  private BrokenSpec selfReference(GeneratedSpec base) {
    String r = "r_" + tag;
    String expr = pick("(" + r + " + 1)", r + "[0]", "default(" + r + ", 0)",
        "(" + r + " * 2)[1]");
    String eq = r + " = " + expr;
    String text = render(base, List.of("aux " + r, eq));
    return at(Kind.SELF_REFERENCE, text, eq, eq.indexOf(r, 1), "refers to itself", base);
  }

  private BrokenSpec missingEquation(GeneratedSpec base) {
    if (rnd.nextBoolean()) {
      String m = "miss_" + tag;
      boolean out = rnd.nextBoolean();
      String decl = (out ? "out " : "aux ") + m + ": Int";
      String text = render(base, List.of(decl));
      return at(Kind.MISSING_EQUATION, text, decl, 4, "missing equation for "
          + (out ? "output" : "aux") + " stream '" + m + "'", base);
    }
    Stream s = base.computed().get(rnd.nextInt(base.computed().size()));
    String text = base.render(Annotations.SOME, base.layoutSeed(), Set.of(s.name()), List.of());
    // The declaration is the line that starts with the keyword and the name.
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      for (String kw : new String[] {"out ", "aux ", "var "}) {
        String head = kw + s.name();
        if (lines[i].startsWith(head) && (lines[i].length() == head.length()
            || !Character.isLetterOrDigit(lines[i].charAt(head.length())))) {
          return new BrokenSpec(Kind.MISSING_EQUATION, text, i + 1, 5,
              "missing equation for " + (s.role() == Role.OUT ? "output" : "aux") + " stream '"
                  + s.name() + "'", base);
        }
      }
    }
    throw new IllegalStateException("no declaration of " + s.name() + " in\n" + text);
  }

  private BrokenSpec duplicate(GeneratedSpec base) {
    List<Stream> all = base.streams();
    Stream s = all.get(rnd.nextInt(all.size()));
    switch (rnd.nextInt(4)) {
      case 0: {
        String decl = "aux " + s.name() + "  // again " + tag;
        return at(Kind.DUPLICATE, render(base, List.of(decl)), decl, 4,
            "duplicate declaration of stream '" + s.name() + "'", base);
      }
      case 1: {
        Stream c = base.computed().get(rnd.nextInt(base.computed().size()));
        String eq = c.name() + " = " + (100_000 + tag);
        return at(Kind.DUPLICATE, render(base, List.of(eq)), eq, 0,
            "duplicate equation for stream '" + c.name() + "'", base);
      }
      case 2: {
        Stream in = base.inputs().get(rnd.nextInt(base.inputs().size()));
        String eq = in.name() + " = " + tag;
        return at(Kind.DUPLICATE, render(base, List.of(eq)), eq, 0,
            "input stream '" + in.name() + "' cannot have an equation", base);
      }
      default: {
        String eq = "ghost_" + tag + " = 1";
        return at(Kind.DUPLICATE, render(base, List.of(eq)), eq, 0,
            "equation for undeclared stream 'ghost_" + tag + "'", base);
      }
    }
  }

  private BrokenSpec typeError(GeneratedSpec base) {
    String t = "te_" + tag;
    String decl;
    String eq;
    int column;
    String fragment;
    switch (rnd.nextInt(6)) {
      case 0: {
        String[] pair = pickPair(new String[][] {{"Int", "true"}, {"Bool", "1"},
            {"Str", "2.5"}, {"Float", "\"s\""}, {"Int", "1.5"}});
        decl = "aux " + t + ": " + pair[0];
        eq = t + " = " + pair[1];
        column = eq.indexOf(" = ") + 3;
        fragment = "type mismatch: stream '" + t + "' is declared " + pair[0];
        break;
      }
      case 1:
        decl = "aux " + t;
        eq = t + " = (true + 1)";
        column = eq.indexOf('+');
        fragment = "operator '+' cannot be applied to Bool and Int";
        break;
      case 2:
        decl = "aux " + t;
        eq = t + " = (if 1 then 2 else 3)";
        column = eq.indexOf("if 1") + 3;
        fragment = "the condition of if needs Bool, found Int";
        break;
      case 3:
        decl = "aux " + t;
        eq = t + " = (\"a\" ++ 1)";
        column = eq.indexOf("++");
        fragment = "cannot be applied to Str and Int";
        break;
      case 4:
        decl = "aux " + t;
        eq = t + " = (!5)";
        column = eq.indexOf('!');
        fragment = "operator '!' needs Bool, found Int";
        break;
      default:
        decl = "aux " + t;
        eq = t + " = (1 && true)";
        column = eq.indexOf("&&");
        fragment = "cannot be applied to Int and Bool";
        break;
    }
    return at(Kind.TYPE_ERROR, render(base, List.of(decl, eq)), eq, column, fragment, base);
  }

  private BrokenSpec syntaxError(GeneratedSpec base) {
    String s = "se_" + tag;
    String head = "aux " + s + " = ";
    switch (rnd.nextInt(6)) {
      case 0:
      case 1: {
        // An error at the end of the input points just after the last token.
        String line = head + pick("(1 +", "if true then 1", "(2 * (3 + 4)", "default(1,");
        return at(Kind.SYNTAX_ERROR, render(base, List.of(line)), line, line.length(),
            "end of input", base);
      }
      case 2: {
        String line = head + "1 $ 2";
        return at(Kind.SYNTAX_ERROR, render(base, List.of(line)), line, line.indexOf('$'), "",
            base);
      }
      case 3: {
        String line = head + "99999999999999999999";
        return at(Kind.SYNTAX_ERROR, render(base, List.of(line)), line, head.length(), "",
            base);
      }
      case 4: {
        // {text, the token the error is at}: `1.` is not a float, so the error is at the dot.
        String[] bad = pickPair(new String[][] {{"1.", "."}, {"\"open", "\""}, {")", ")"},
            {"x[y]", "y"}, {"1 +* 2", "*"}});
        String line = head + bad[0];
        return at(Kind.SYNTAX_ERROR, render(base, List.of(line)), line,
            head.length() + bad[0].indexOf(bad[1]), "", base);
      }
      default: {
        String line = "in " + s + " = 1";
        return at(Kind.SYNTAX_ERROR, render(base, List.of(line)), line, line.indexOf('='),
            "cannot have an equation", base);
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  private static String render(GeneratedSpec base, List<String> extra) {
    return base.render(Annotations.SOME, base.layoutSeed(), Set.of(), extra);
  }

  /**
   * A broken spec whose error is on the first line containing {@code marker}, at 0-based
   * {@code offset} in that line ({@code -1}: column not pinned down; {@code 0} with a
   * marker that is a token: at the marker).
   */
  private static BrokenSpec at(Kind kind, String text, String marker, int offset,
      String fragment, GeneratedSpec base) {
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int at = lines[i].indexOf(marker);
      if (at >= 0) {
        int column = offset < 0 ? 0 : at + offset + 1;
        return new BrokenSpec(kind, text, i + 1, column, fragment, base);
      }
    }
    throw new IllegalStateException("marker '" + marker + "' not in\n" + text);
  }

  private String pick(String... options) {
    return options[rnd.nextInt(options.length)];
  }

  private String[] pickPair(String[][] options) {
    return options[rnd.nextInt(options.length)];
  }
}
