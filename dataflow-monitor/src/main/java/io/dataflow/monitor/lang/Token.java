package io.dataflow.monitor.lang;

/**
 * One lexical token with its position. {@code endLine}/{@code endColumn} point just after the
 * token, which is where an error "at the end of the input" is reported.
 */
record Token(
    TokenKind kind, String text, Object literal, int line, int column, int endLine, int endColumn) {

  /** How an error message names this token. */
  String describe() {
    switch (kind) {
      case EOF:
        return "end of input";
      case IDENT:
        return "'" + text + "'";
      case INT:
      case FLOAT:
        return "number " + text;
      case STRING:
        return "string " + text;
      default:
        return "'" + text + "'";
    }
  }
}
