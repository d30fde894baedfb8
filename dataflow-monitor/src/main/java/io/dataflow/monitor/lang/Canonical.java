package io.dataflow.monitor.lang;

import io.dataflow.core.ValueFormat;
import io.dataflow.monitor.lang.Ast.Expr;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The canonical text of an expression (an s-expression independent of layout, parentheses,
 * spelling variants such as {@code and}/{@code &&} and of declaration order) and the
 * fingerprints derived from it.
 */
public final class Canonical {
  private Canonical() {}

  /** The canonical text of an expression. */
  public static String print(Expr e) {
    StringBuilder sb = new StringBuilder();
    print(e, sb);
    return sb.toString();
  }

  private static void print(Expr e, StringBuilder sb) {
    if (e instanceof Ast.Lit l) {
      sb.append(ValueFormat.format(l.value()));
    } else if (e instanceof Ast.Var v) {
      sb.append('$').append(v.name());
    } else if (e instanceof Ast.Unary u) {
      sb.append('(').append(u.op().symbol).append(' ');
      print(u.operand(), sb);
      sb.append(')');
    } else if (e instanceof Ast.Binary b) {
      sb.append('(').append(b.op().symbol).append(' ');
      print(b.left(), sb);
      sb.append(' ');
      print(b.right(), sb);
      sb.append(')');
    } else if (e instanceof Ast.If i) {
      sb.append("(if ");
      print(i.cond(), sb);
      sb.append(' ');
      print(i.then(), sb);
      sb.append(' ');
      print(i.otherwise(), sb);
      sb.append(')');
    } else if (e instanceof Ast.Index ix) {
      sb.append("(index ").append(ix.offset()).append(' ');
      print(ix.target(), sb);
      sb.append(')');
    } else if (e instanceof Ast.ListLit l) {
      sb.append("(list");
      for (Expr x : l.elements()) {
        sb.append(' ');
        print(x, sb);
      }
      sb.append(')');
    } else if (e instanceof Ast.MapLit m) {
      sb.append("(map");
      for (int i = 0; i < m.keys().size(); i++) {
        sb.append(' ').append(ValueFormat.quote(m.keys().get(i))).append(' ');
        print(m.values().get(i), sb);
      }
      sb.append(')');
    } else if (e instanceof Ast.Call c) {
      sb.append('(').append(c.function());
      if (c.key() != null) {
        sb.append(' ').append(ValueFormat.quote(c.key()));
      }
      for (Expr x : c.args()) {
        sb.append(' ');
        print(x, sb);
      }
      sb.append(')');
    } else if (e instanceof Ast.Dynamic d) {
      sb.append('(').append(d.kind().name().toLowerCase(java.util.Locale.ROOT)).append(' ');
      print(d.source(), sb);
      sb.append(" :").append(d.type() == null ? "_" : d.type().toString());
      sb.append(" {").append(d.scope() == null ? "*" : String.join(",", d.scope())).append("})");
    } else if (e instanceof Ast.Lambda lam) {
      sb.append("(lambda (");
      for (Ast.Param p : lam.params()) {
        sb.append(p.name()).append(':').append(p.type() == null ? "_" : p.type()).append(' ');
      }
      sb.append(") ");
      print(lam.body(), sb);
      sb.append(')');
    } else if (e instanceof Ast.Apply a) {
      sb.append("(apply ");
      print(a.function(), sb);
      for (Expr x : a.args()) {
        sb.append(' ');
        print(x, sb);
      }
      sb.append(')');
    } else {
      throw new IllegalStateException("unhandled node " + e);
    }
  }

  /** The hex SHA-256 of a text, truncated to 32 hex digits. */
  public static String hash(String text) {
    byte[] digest = Sha256.digest(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest, 0, 16);
  }
}
