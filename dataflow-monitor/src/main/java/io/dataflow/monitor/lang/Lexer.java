package io.dataflow.monitor.lang;

import io.dataflow.core.ValueFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns specification text into tokens. Comments ({@code // ...} and {@code (* ... *)}) and
 * whitespace are skipped; every token carries its line and column (from 1).
 */
final class Lexer {
  private static final Map<String, TokenKind> KEYWORDS =
      Map.ofEntries(
          Map.entry("in", TokenKind.IN),
          Map.entry("out", TokenKind.OUT),
          Map.entry("aux", TokenKind.AUX),
          Map.entry("var", TokenKind.VAR),
          Map.entry("if", TokenKind.IF),
          Map.entry("then", TokenKind.THEN),
          Map.entry("else", TokenKind.ELSE),
          Map.entry("true", TokenKind.TRUE),
          Map.entry("false", TokenKind.FALSE),
          Map.entry("and", TokenKind.AND),
          Map.entry("or", TokenKind.OR),
          Map.entry("not", TokenKind.NOT));

  private final String file;
  private final String src;
  private int pos;
  private int line = 1;
  private int col = 1;
  private final List<Token> tokens = new ArrayList<>();

  private Lexer(String file, String src) {
    this.file = file;
    this.src = src;
  }

  /** Tokenizes {@code src}; the last token is EOF, positioned just after the last token. */
  static List<Token> tokenize(String file, String src) {
    Lexer lx = new Lexer(file, src);
    lx.run();
    return lx.tokens;
  }

  private void run() {
    int lastEndLine = 1;
    int lastEndCol = 1;
    while (true) {
      skipTrivia();
      if (pos >= src.length()) {
        break;
      }
      Token t = next();
      tokens.add(t);
      lastEndLine = t.endLine();
      lastEndCol = t.endColumn();
    }
    tokens.add(new Token(TokenKind.EOF, "", null, lastEndLine, lastEndCol, lastEndLine, lastEndCol));
  }

  private void skipTrivia() {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\uFEFF') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (pos < src.length() && src.charAt(pos) != '\n') {
          advance();
        }
      } else if (c == '(' && peek(1) == '*') {
        int startLine = line;
        int startCol = col;
        advance();
        advance();
        while (true) {
          if (pos >= src.length()) {
            throw error(startLine, startCol, "unterminated comment");
          }
          if (src.charAt(pos) == '*' && peek(1) == ')') {
            advance();
            advance();
            break;
          }
          advance();
        }
      } else {
        break;
      }
    }
  }

  private Token next() {
    int startPos = pos;
    int startLine = line;
    int startCol = col;
    char c = src.charAt(pos);
    if (isIdentStart(c)) {
      while (pos < src.length() && isIdentPart(src.charAt(pos))) {
        advance();
      }
      String text = src.substring(startPos, pos);
      TokenKind kw = KEYWORDS.get(text);
      return token(kw == null ? TokenKind.IDENT : kw, startPos, startLine, startCol, null);
    }
    if (c >= '0' && c <= '9') {
      return number(startPos, startLine, startCol);
    }
    if (c == '"') {
      return string(startPos, startLine, startCol);
    }
    advance();
    switch (c) {
      case '(':
        return token(TokenKind.LPAREN, startPos, startLine, startCol, null);
      case ')':
        return token(TokenKind.RPAREN, startPos, startLine, startCol, null);
      case '[':
        return token(TokenKind.LBRACKET, startPos, startLine, startCol, null);
      case ']':
        return token(TokenKind.RBRACKET, startPos, startLine, startCol, null);
      case '{':
        return token(TokenKind.LBRACE, startPos, startLine, startCol, null);
      case '}':
        return token(TokenKind.RBRACE, startPos, startLine, startCol, null);
      case ',':
        return token(TokenKind.COMMA, startPos, startLine, startCol, null);
      case ':':
        return token(TokenKind.COLON, startPos, startLine, startCol, null);
      case '.':
        return token(TokenKind.DOT, startPos, startLine, startCol, null);
      case '\\':
        return token(TokenKind.BACKSLASH, startPos, startLine, startCol, null);
      case '%':
        return token(TokenKind.PERCENT, startPos, startLine, startCol, null);
      case '/':
        return token(TokenKind.SLASH, startPos, startLine, startCol, null);
      case '*':
        return match('*')
            ? token(TokenKind.POWER, startPos, startLine, startCol, null)
            : token(TokenKind.STAR, startPos, startLine, startCol, null);
      case '+':
        return match('+')
            ? token(TokenKind.CONCAT, startPos, startLine, startCol, null)
            : token(TokenKind.PLUS, startPos, startLine, startCol, null);
      case '-':
        return match('>')
            ? token(TokenKind.ARROW, startPos, startLine, startCol, null)
            : token(TokenKind.MINUS, startPos, startLine, startCol, null);
      case '=':
        if (match('=')) {
          return token(TokenKind.EQ, startPos, startLine, startCol, null);
        }
        return match('>')
            ? token(TokenKind.IMPLIES, startPos, startLine, startCol, null)
            : token(TokenKind.ASSIGN, startPos, startLine, startCol, null);
      case '!':
        return match('=')
            ? token(TokenKind.NE, startPos, startLine, startCol, null)
            : token(TokenKind.BANG, startPos, startLine, startCol, null);
      case '<':
        return match('=')
            ? token(TokenKind.LE, startPos, startLine, startCol, null)
            : token(TokenKind.LT, startPos, startLine, startCol, null);
      case '>':
        return match('=')
            ? token(TokenKind.GE, startPos, startLine, startCol, null)
            : token(TokenKind.GT, startPos, startLine, startCol, null);
      case '&':
        if (match('&')) {
          return token(TokenKind.ANDAND, startPos, startLine, startCol, null);
        }
        break;
      case '|':
        if (match('|')) {
          return token(TokenKind.OROR, startPos, startLine, startCol, null);
        }
        break;
      default:
        break;
    }
    throw error(startLine, startCol, "unexpected character '" + printable(c) + "'");
  }

  private Token number(int startPos, int startLine, int startCol) {
    while (pos < src.length() && isDigit(src.charAt(pos))) {
      advance();
    }
    boolean isFloat = false;
    if (peek(0) == '.' && isDigit(peek(1))) {
      isFloat = true;
      advance();
      while (pos < src.length() && isDigit(src.charAt(pos))) {
        advance();
      }
    }
    if ((peek(0) == 'e' || peek(0) == 'E')
        && (isDigit(peek(1)) || ((peek(1) == '-' || peek(1) == '+') && isDigit(peek(2))))) {
      isFloat = true;
      advance();
      if (peek(0) == '-' || peek(0) == '+') {
        advance();
      }
      while (pos < src.length() && isDigit(src.charAt(pos))) {
        advance();
      }
    }
    if (pos < src.length() && isIdentStart(src.charAt(pos))) {
      throw error(startLine, startCol, "malformed number '" + src.substring(startPos, pos + 1) + "'");
    }
    String text = src.substring(startPos, pos);
    if (isFloat) {
      return token(TokenKind.FLOAT, startPos, startLine, startCol, Double.parseDouble(text));
    }
    try {
      return token(TokenKind.INT, startPos, startLine, startCol, Long.parseLong(text));
    } catch (NumberFormatException e) {
      throw error(startLine, startCol, "integer literal out of range: " + text);
    }
  }

  private Token string(int startPos, int startLine, int startCol) {
    advance(); // opening quote
    int bodyStart = pos;
    while (true) {
      if (pos >= src.length() || src.charAt(pos) == '\n') {
        throw error(startLine, startCol, "unterminated string literal");
      }
      char c = src.charAt(pos);
      if (c == '"') {
        break;
      }
      if (c == '\\' && pos + 1 < src.length()) {
        advance();
      }
      advance();
    }
    String body = src.substring(bodyStart, pos);
    advance(); // closing quote
    String value;
    try {
      value = ValueFormat.unescape(body);
    } catch (ValueFormat.BadEscapeException e) {
      throw error(startLine, startCol + 1 + e.offset(), e.getMessage());
    }
    return token(TokenKind.STRING, startPos, startLine, startCol, value);
  }

  private Token token(TokenKind kind, int startPos, int startLine, int startCol, Object literal) {
    return new Token(kind, src.substring(startPos, pos), literal, startLine, startCol, line, col);
  }

  private boolean match(char expected) {
    if (pos < src.length() && src.charAt(pos) == expected) {
      advance();
      return true;
    }
    return false;
  }

  private char peek(int ahead) {
    int p = pos + ahead;
    return p < src.length() ? src.charAt(p) : '\0';
  }

  private void advance() {
    if (src.charAt(pos) == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
    pos++;
  }

  private CompileError error(int l, int c, String message) {
    return new CompileError(new io.dataflow.core.SourceLocation(file, l, c), message);
  }

  private static String printable(char c) {
    return c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c);
  }
}
