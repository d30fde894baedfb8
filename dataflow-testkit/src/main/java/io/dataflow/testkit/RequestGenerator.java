package io.dataflow.testkit;

import io.dataflow.reconfig.ReconfigurationAck;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Generates reconfiguration requests (docs/reconfiguration.md#requests) as one-line JSON5 text:
 * valid replacements derived from an active spec (the same spec, the same definitions in another
 * layout, one stream changed, an output added or removed) and broken requests (an unknown
 * field, a blank or missing specification, a specification that does not compile, malformed
 * JSON5), each labelled with what the runtime must do with it.
 *
 * <pre>{@code
 * RequestGenerator requests = new RequestGenerator(seed);
 * GeneratedRequest r = requests.valid(spec);
 * String line = "@reconfigure " + r.json();          // a trace-file line
 * ReconfigurationRequest decoded = RequestDecoder.decode(r.json(), "gen");
 * }</pre>
 *
 * <p>The JSON5 varies in a seeded way: quoted, single-quoted or bare keys, double- or
 * single-quoted strings, Unicode escapes, block comments and trailing commas.
 *
 * <p>Thread-safety: one thread (it owns a random generator).
 */
public final class RequestGenerator {
  /** The kinds of requests. */
  public enum Kind {
    /** The active text again: {@code RetainExact}. */
    SAME_SPEC(true),
    /** The same definitions in another layout: {@code RetainExact}. */
    RELAYOUT(true),
    /** One stream's expression changed: {@code Transfer}. */
    CHANGED_STREAM(true),
    /** One more output: {@code Transfer}, the interface changes. */
    ADDED_OUTPUT(true),
    /** One output fewer (removed, or demoted to aux): {@code Transfer}, the interface changes. */
    REMOVED_OUTPUT(true),
    /** A field the request format does not have: rejected. */
    UNKNOWN_FIELD(false),
    /** A specification of only white space: rejected. */
    BLANK_SPECIFICATION(false),
    /** No specification field: rejected. */
    MISSING_SPECIFICATION(false),
    /** A specification that does not compile: fails to plan. */
    NOT_COMPILING(false),
    /** Text that is not a JSON5 object. */
    MALFORMED(false);

    private final boolean valid;

    Kind(boolean valid) {
      this.valid = valid;
    }

    /** True when the runtime must accept the request. */
    public boolean isValid() {
      return valid;
    }
  }

  /**
   * A generated request.
   *
   * @param kind what the request is
   * @param json the request as one line of JSON5
   * @param replacement the replacement spec of a valid request, else null
   * @param specification the specification text the request carries, or null
   */
  public record GeneratedRequest(Kind kind, String json, GeneratedSpec replacement,
      String specification) {
    /** Validates. */
    public GeneratedRequest {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(json, "json");
      if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("a request must fit on one line: " + json);
      }
    }

    /** True when the runtime must accept the request. */
    public boolean isValid() {
      return kind.isValid();
    }

    /** The monitor plan an accepted request gets with context transfer, else null. */
    public ReconfigurationAck.Plan expectedPlan() {
      if (!kind.isValid()) {
        return null;
      }
      return kind == Kind.SAME_SPEC || kind == Kind.RELAYOUT ? ReconfigurationAck.Plan.RETAIN_EXACT
          : ReconfigurationAck.Plan.TRANSFER;
    }

    /** True when accepting the request changes the set of output names. */
    public boolean changesInterface() {
      return kind == Kind.ADDED_OUTPUT || kind == Kind.REMOVED_OUTPUT;
    }

    @Override
    public String toString() {
      return kind + " " + json;
    }
  }

  private final SpecGenerator specs;
  private final SplittableRandom rnd;

  /** A generator whose every choice follows from {@code seed}. */
  public RequestGenerator(long seed) {
    this.specs = new SpecGenerator(seed);
    this.rnd = specs.random();
  }

  /** A valid request of a random kind replacing {@code active}. */
  public GeneratedRequest valid(GeneratedSpec active) {
    Kind[] valid = {Kind.SAME_SPEC, Kind.RELAYOUT, Kind.CHANGED_STREAM, Kind.ADDED_OUTPUT,
        Kind.REMOVED_OUTPUT};
    return of(valid[rnd.nextInt(valid.length)], active);
  }

  /** A broken request of a random kind. */
  public GeneratedRequest broken(GeneratedSpec active) {
    Kind[] broken = {Kind.UNKNOWN_FIELD, Kind.BLANK_SPECIFICATION, Kind.MISSING_SPECIFICATION,
        Kind.NOT_COMPILING, Kind.MALFORMED};
    return of(broken[rnd.nextInt(broken.length)], active);
  }

  /** A request of the given kind for a runtime running {@code active}. */
  public GeneratedRequest of(Kind kind, GeneratedSpec active) {
    switch (kind) {
      case SAME_SPEC:
        return replacing(kind, active);
      case RELAYOUT:
        return replacing(kind, active.withLayoutSeed(rnd.nextLong()));
      case CHANGED_STREAM:
        return replacing(kind, specs.changeOneStream(active));
      case ADDED_OUTPUT:
        return replacing(kind, specs.addOutput(active));
      case REMOVED_OUTPUT:
        return replacing(kind, specs.removeOutput(active));
      case UNKNOWN_FIELD: {
        String spec = active.text();
        String extra = rnd.nextBoolean() ? key("extra") + ": 1"
            : key("input") + ": {" + key("bogus") + ": {}}";
        return new GeneratedRequest(kind, object(key("specification") + ": " + string(spec),
            extra), null, spec);
      }
      case BLANK_SPECIFICATION: {
        String blank = new String[] {"", " ", "\n\t ", "   "}[rnd.nextInt(4)];
        return new GeneratedRequest(kind, object(key("specification") + ": " + string(blank)),
            null, blank);
      }
      case MISSING_SPECIFICATION:
        return new GeneratedRequest(kind, rnd.nextBoolean() ? "{}"
            : object(key("output") + ": {}"), null, null);
      case NOT_COMPILING: {
        String spec = specs.broken().text();
        return new GeneratedRequest(kind, object(key("specification") + ": " + string(spec)),
            null, spec);
      }
      case MALFORMED: {
        String spec = active.text();
        String whole = object(key("specification") + ": " + string(spec));
        String json = switch (rnd.nextInt(3)) {
          case 0 -> whole.substring(0, whole.length() - 1); // no closing brace
          case 1 -> "{" + key("specification") + " " + string(spec) + "}"; // no colon
          default -> "[" + string(spec) + "]"; // not an object
        };
        return new GeneratedRequest(kind, json, null, spec);
      }
      default:
        throw new IllegalStateException("unknown kind " + kind);
    }
  }

  private GeneratedRequest replacing(Kind kind, GeneratedSpec replacement) {
    String spec = replacement.text();
    return new GeneratedRequest(kind, object(key("specification") + ": " + string(spec)),
        replacement, spec);
  }

  // ---------------------------------------------------------------- JSON5

  private String object(String... members) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < members.length; i++) {
      if (rnd.nextInt(6) == 0) {
        sb.append("/* c */ ");
      }
      sb.append(i == 0 ? "" : ", ").append(members[i]);
    }
    if (rnd.nextInt(3) == 0) {
      sb.append(',');
    }
    return sb.append(rnd.nextBoolean() ? "}" : " }").toString();
  }

  private String key(String name) {
    switch (rnd.nextInt(3)) {
      case 0:
        return name;
      case 1:
        return "'" + name + "'";
      default:
        return "\"" + name + "\"";
    }
  }

  private String string(String s) {
    return json5String(s, rnd.nextInt(3) == 0 ? '\'' : '"', rnd.nextInt(3) == 0);
  }

  /**
   * A JSON5 string literal on one line: the quote and backslash escaped, line breaks and other
   * control characters as escapes, and with {@code asciiOnly} every non-ASCII character as a
   * Unicode escape.
   */
  public static String json5String(String s, char quote, boolean asciiOnly) {
    StringBuilder sb = new StringBuilder().append(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == quote || c == '\\') {
        sb.append('\\').append(c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c < 0x20 || (asciiOnly && c > 0x7e)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append(quote).toString();
  }
}
