package io.dataflow.runs;

import io.dataflow.monitor.TypingMode;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A request for a durable run: the pinned specification, its input, options and the stable
 * idempotency key. The ledger records the SHA-256 of its canonical JSON (specification, edition,
 * typing mode, input description, mode and options; keys sorted, no whitespace) as the request
 * hash, and the SHA-256 over the specification text and language edition as the definition
 * hash.
 *
 * <p>A request carries no secret: an option whose name looks like a credential
 * ({@code password}, {@code secret}, {@code token}, {@code credential}, {@code apikey}) is
 * refused, because everything in a request is recovery evidence and is written to the ledger.
 *
 * @param specificationName the specification's name in messages ({@code nightly.dsrv})
 * @param specification the specification text (pinned: its hash is recorded)
 * @param languageEdition the language edition the text is written for
 *     ({@link #CURRENT_EDITION})
 * @param typingMode how strictly the specification is type-checked
 * @param input the finite input
 * @param options free options recorded in the canonical request (sorted by name)
 * @param idempotencyKey the stable key: a second start with it returns the first run
 * @param mode atomic or forward recovery
 * @param invocation API or command line
 */
public record RunRequest(String specificationName, String specification, String languageEdition,
    TypingMode typingMode, RunInput input, Map<String, String> options, String idempotencyKey,
    RunMode mode, Invocation invocation) {
  /** The language edition of this library's specifications. */
  public static final String CURRENT_EDITION = "dsrv-1";

  /** The longest idempotency key accepted. */
  public static final int MAX_KEY_LENGTH = 256;

  private static final Pattern SECRET_NAME =
      Pattern.compile(".*(pass(word|wd)?|secret|token|credential|api[-_]?key).*");

  /**
   * Checks the request.
   *
   * @throws IllegalArgumentException naming the bad field
   */
  public RunRequest {
    Objects.requireNonNull(specificationName, "specificationName");
    Objects.requireNonNull(specification, "specification");
    Objects.requireNonNull(languageEdition, "languageEdition");
    Objects.requireNonNull(typingMode, "typingMode");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(invocation, "invocation");
    if (idempotencyKey.isBlank() || idempotencyKey.length() > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException("the idempotency key must have 1 to " + MAX_KEY_LENGTH
          + " characters and not be blank, not '" + idempotencyKey + "'");
    }
    TreeMap<String, String> sorted = new TreeMap<>();
    for (Map.Entry<String, String> e : (options == null ? Map.<String, String>of() : options)
        .entrySet()) {
      String name = Objects.requireNonNull(e.getKey(), "option name");
      if (SECRET_NAME.matcher(name.toLowerCase(Locale.ROOT)).matches()) {
        throw new IllegalArgumentException("option '" + name + "' looks like a credential: a"
            + " durable run records its request in the ledger and never records credentials");
      }
      sorted.put(name, Objects.requireNonNull(e.getValue(), "value of option " + name));
    }
    options = Collections.unmodifiableMap(sorted);
  }

  /** A builder: the defaults are the current edition, gradual typing, atomic mode and the API. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link RunRequest}. Thread-safety: confined to one thread. */
  public static final class Builder {
    private String specificationName;
    private String specification;
    private String languageEdition = CURRENT_EDITION;
    private TypingMode typingMode = TypingMode.GRADUAL;
    private RunInput input;
    private final Map<String, String> options = new TreeMap<>();
    private String idempotencyKey;
    private RunMode mode = RunMode.ATOMIC;
    private Invocation invocation = Invocation.API;

    private Builder() {}

    /** The specification's name and text. */
    public Builder specification(String name, String text) {
      this.specificationName = name;
      this.specification = text;
      return this;
    }

    /** The language edition (default {@link #CURRENT_EDITION}). */
    public Builder languageEdition(String edition) {
      this.languageEdition = edition;
      return this;
    }

    /** The typing mode (default gradual). */
    public Builder typingMode(TypingMode mode) {
      this.typingMode = mode;
      return this;
    }

    /** The finite input. */
    public Builder input(RunInput input) {
      this.input = input;
      return this;
    }

    /** An option recorded in the canonical request. */
    public Builder option(String name, String value) {
      options.put(name, value);
      return this;
    }

    /** The stable idempotency key. */
    public Builder idempotencyKey(String key) {
      this.idempotencyKey = key;
      return this;
    }

    /** The mode (default atomic). */
    public Builder mode(RunMode mode) {
      this.mode = mode;
      return this;
    }

    /** Who asks (default the API). */
    public Builder invocation(Invocation invocation) {
      this.invocation = invocation;
      return this;
    }

    /**
     * The request.
     *
     * @throws IllegalArgumentException when a field is missing or bad, naming it
     */
    public RunRequest build() {
      if (specification == null || specificationName == null) {
        throw new IllegalArgumentException("a run request needs specification(name, text)");
      }
      if (input == null) {
        throw new IllegalArgumentException("a run request needs input(RunInput)");
      }
      if (idempotencyKey == null) {
        throw new IllegalArgumentException("a run request needs idempotencyKey(key)");
      }
      return new RunRequest(specificationName, specification, languageEdition, typingMode, input,
          options, idempotencyKey, mode, invocation);
    }
  }
}
