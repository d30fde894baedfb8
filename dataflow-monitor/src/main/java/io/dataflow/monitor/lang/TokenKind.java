package io.dataflow.monitor.lang;

/** The kinds of tokens of the specification language. */
enum TokenKind {
  IDENT, INT, FLOAT, STRING,
  // keywords
  IN, OUT, AUX, VAR, IF, THEN, ELSE, TRUE, FALSE, AND, OR, NOT,
  // punctuation
  LPAREN, RPAREN, LBRACKET, RBRACKET, LBRACE, RBRACE, COMMA, COLON, DOT, BACKSLASH, ARROW,
  ASSIGN, EQ, NE, LT, LE, GT, GE, PLUS, MINUS, STAR, SLASH, PERCENT, POWER, CONCAT, IMPLIES,
  OROR, ANDAND, BANG,
  EOF
}
