package io.dataflow.io.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one lenient JSON reader of the project: plain JSON plus the JSON5 conveniences the
 * requests use (comments, single quotes, unquoted keys, trailing commas, leading plus signs,
 * NaN and Infinity). Used for {@code @reconfigure} lines, JSON Lines input and requests.
 */
public final class Json5 {
  /** The lenient mapper; private, so nobody can reconfigure the one everybody reads with. */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
          .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
          .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
          .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
          .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
          .enable(JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS)
          .enable(JsonReadFeature.ALLOW_TRAILING_DECIMAL_POINT_FOR_NUMBERS)
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .build();

  private Json5() {}

  /** Malformed JSON5, with the 1-based column where the parser stopped. */
  public static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;
    private final int column;

    SyntaxError(String message, int column) {
      super(message, null, false, false);
      this.column = column;
    }

    /** The 1-based column within the parsed text. */
    public int column() {
      return column;
    }
  }

  /**
   * Parses one JSON5 value of any kind (a number, an array, an object, ...).
   *
   * @throws java.io.IOException when the text is not one well-formed value
   */
  public static JsonNode parseValue(String text) throws java.io.IOException {
    return MAPPER.readTree(text);
  }

  /**
   * Parses one JSON5 object.
   *
   * @throws SyntaxError when the text is not one well-formed object
   */
  public static JsonNode parseObject(String text) throws SyntaxError {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      int column = loc == null ? 1 : Math.max(1, loc.getColumnNr());
      throw new SyntaxError(withoutSourceDescription(e.getOriginalMessage()), column);
    } catch (RuntimeException e) {
      // The lenient number features can let a malformed number through as a
      // NumberFormatException (found by fuzzing: the text "."); it is malformed JSON all the same.
      throw new SyntaxError("malformed JSON: " + e.getMessage(), 1);
    }
    if (node == null || node.isMissingNode()) {
      throw new SyntaxError("expected a JSON object, found nothing", 1);
    }
    if (!node.isObject()) {
      throw new SyntaxError("expected a JSON object, found " + node.getNodeType()
          .toString().toLowerCase(java.util.Locale.ROOT), 1);
    }
    return node;
  }

  /**
   * Drops Jackson's "(start marker at [Source: REDACTED ...])" from a message: it names parser
   * internals and its column would be relative to the JSON text, not to the line it is on.
   */
  private static String withoutSourceDescription(String message) {
    int at = message.indexOf(" (start marker at [Source: ");
    return at < 0 ? message : message.substring(0, at);
  }

  /** Checks that the text is one well-formed JSON5 object. */
  public static void syntaxCheck(String text) throws SyntaxError {
    parseObject(text);
  }
}
