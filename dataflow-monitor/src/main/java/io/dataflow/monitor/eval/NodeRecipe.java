package io.dataflow.monitor.eval;

import io.dataflow.core.Value;
import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Ast.BinOp;
import io.dataflow.monitor.lang.Ast.Expr;
import io.dataflow.monitor.lang.CheckedSpec;
import io.dataflow.monitor.lang.Type;
import java.util.List;

/**
 * How to build one top-level equation's node tree, with what {@link NodeBuilder} looks up in
 * the syntax (stream indices by name, the checker's types, the typed operator chosen, the
 * temporal function named) resolved once per specification. Every evaluator built for the
 * program (each restore, each new monitor) then only allocates its fresh nodes: a recipe holds
 * no node, cell, ring or slot, and {@link #make} returns a new tree every time, the same nodes
 * in the same order as {@code NodeBuilder} would build (the order of {@code commits} included).
 *
 * <p>Only the syntax of plain equations has a recipe; an equation with a lambda, a function
 * application, a higher-order call or a {@code dynamic}/{@code defer} has none ({@link #of}
 * returns null) and is built by {@code NodeBuilder}, as before.
 */
abstract class NodeRecipe {
  /** Whether the built node is flagged {@link Node#scalar} (see {@code NodeBuilder.build}). */
  private final boolean scalarType;
  /**
   * For a top-level equation's recipe: the snapshot walk of the trees it makes, flattened once
   * ({@link StateWalker.WalkPlan}, immutable; set lazily, a race only computes it twice), or
   * null before the first walk.
   */
  StateWalker.WalkPlan walkPlan;

  private NodeRecipe(boolean scalarType) {
    this.scalarType = scalarType;
  }

  /** A fresh node tree reading {@code cells}; delays are added to {@code commits}. */
  final Node make(StreamCell[] cells, List<Committable> commits) {
    Node n = node(cells, commits);
    if (scalarType && !n.isLeaf()) {
      n.scalar = true;
    }
    return n;
  }

  abstract Node node(StreamCell[] cells, List<Committable> commits);

  /** The recipe of a top-level equation, or null when it holds syntax without one. */
  static NodeRecipe of(Expr e, CheckedSpec spec) {
    try {
      return recipe(e, spec);
    } catch (Unsupported u) {
      return null;
    }
  }

  /** Syntax without a recipe (left to {@code NodeBuilder}). */
  private static final class Unsupported extends RuntimeException {
    Unsupported() {
      super(null, null, false, false);
    }
  }

  private static NodeRecipe[] all(List<Expr> exprs, CheckedSpec spec) {
    NodeRecipe[] out = new NodeRecipe[exprs.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = recipe(exprs.get(i), spec);
    }
    return out;
  }

  private static Node[] makeAll(NodeRecipe[] rs, StreamCell[] cells, List<Committable> commits) {
    Node[] out = new Node[rs.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = rs[i].make(cells, commits);
    }
    return out;
  }

  private static NodeRecipe recipe(Expr e, CheckedSpec spec) {
    Type t = spec.types().get(e);
    boolean scalar = t != null && (t.equals(Type.INT) || t.equals(Type.FLOAT)
        || t.equals(Type.BOOL));
    if (e instanceof Ast.Lit l) {
      Value v = l.value();
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          return new Nodes.Const(v);
        }
      };
    }
    if (e instanceof Ast.Var v) {
      Integer index = spec.byName().get(v.name());
      if (index == null) {
        throw new Unsupported(); // not a stream (NodeBuilder reports it)
      }
      int stream = index;
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          return cells[stream];
        }
      };
    }
    if (e instanceof Ast.Unary u) {
      NodeRecipe x = recipe(u.operand(), spec);
      boolean neg = u.op() == Ast.UnOp.NEG;
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          Node n = x.make(cells, commits);
          return neg ? new Nodes.Neg(n) : new Nodes.Not(n);
        }
      };
    }
    if (e instanceof Ast.Binary b) {
      return binary(b, scalar, spec);
    }
    if (e instanceof Ast.If i) {
      NodeRecipe c = recipe(i.cond(), spec);
      NodeRecipe th = recipe(i.then(), spec);
      NodeRecipe ot = recipe(i.otherwise(), spec);
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          Node cn = c.make(cells, commits);
          Node tn = th.make(cells, commits);
          return new Nodes.If(cn, tn, ot.make(cells, commits));
        }
      };
    }
    if (e instanceof Ast.Index ix) {
      return index(ix, scalar, spec);
    }
    if (e instanceof Ast.ListLit l) {
      NodeRecipe[] elements = all(l.elements(), spec);
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          return new Builtins.Strict("List", makeAll(elements, cells, commits),
              Builtins.listConstructor());
        }
      };
    }
    if (e instanceof Ast.MapLit m) {
      NodeRecipe[] values = all(m.values(), spec);
      List<String> keys = m.keys();
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          return new Builtins.Strict("Map", makeAll(values, cells, commits),
              Builtins.mapConstructor(keys));
        }
      };
    }
    if (e instanceof Ast.Call c) {
      return call(c, scalar, spec);
    }
    throw new Unsupported(); // dynamic, lambda, apply
  }

  private static NodeRecipe index(Ast.Index ix, boolean scalar, CheckedSpec spec) {
    if (ix.offset() == 0) {
      NodeRecipe x = recipe(ix.target(), spec);
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          return new Nodes.Lift(x.make(cells, commits));
        }
      };
    }
    int offset = ix.offset();
    if (ix.target() instanceof Ast.Var v) {
      Integer index = spec.byName().get(v.name());
      if (index == null) {
        throw new Unsupported();
      }
      int stream = index;
      return new NodeRecipe(scalar) {
        @Override
        Node node(StreamCell[] cells, List<Committable> commits) {
          return new TemporalNodes.HistoryRead(cells[stream].ring, offset);
        }
      };
    }
    NodeRecipe x = recipe(ix.target(), spec);
    return new NodeRecipe(scalar) {
      @Override
      Node node(StreamCell[] cells, List<Committable> commits) {
        TemporalNodes.Delay d = new TemporalNodes.Delay(x.make(cells, commits), offset);
        commits.add(d);
        return d;
      }
    };
  }

  /** Which node a binary operator builds ({@code NodeBuilder.binary}'s choice). */
  private enum BinKind { INT_ARITH, NUM_COMPARE, BOOL_LOGIC, ARITH, ORDER, EQ, NE, LOGICAL,
    CONCAT }

  private static NodeRecipe binary(Ast.Binary b, boolean scalar, CheckedSpec spec) {
    NodeRecipe l = recipe(b.left(), spec);
    NodeRecipe r = recipe(b.right(), spec);
    BinOp op = b.op();
    Type lt = spec.types().get(b.left());
    Type rt = spec.types().get(b.right());
    BinKind kind;
    if (op.isArithmetic() && Type.INT.equals(lt) && Type.INT.equals(rt)) {
      kind = BinKind.INT_ARITH;
    } else if (op.isOrdering() && lt != null && rt != null && lt.isNumeric()
        && rt.isNumeric()) {
      kind = BinKind.NUM_COMPARE;
    } else if (op.isLogical() && Type.BOOL.equals(lt) && Type.BOOL.equals(rt)) {
      kind = BinKind.BOOL_LOGIC;
    } else {
      kind = switch (op) {
        case ADD, SUB, MUL, DIV, MOD, POW -> BinKind.ARITH;
        case LT, LE, GT, GE -> BinKind.ORDER;
        case EQ -> BinKind.EQ;
        case NE -> BinKind.NE;
        case AND, OR, IMPLIES -> BinKind.LOGICAL;
        case CONCAT -> BinKind.CONCAT;
        default -> throw new Unsupported();
      };
    }
    return new NodeRecipe(scalar) {
      @Override
      Node node(StreamCell[] cells, List<Committable> commits) {
        Node ln = l.make(cells, commits);
        Node rn = r.make(cells, commits);
        return switch (kind) {
          case INT_ARITH -> new TypedNodes.IntArith(op, ln, rn);
          case NUM_COMPARE -> new TypedNodes.NumCompare(op, ln, rn);
          case BOOL_LOGIC -> new TypedNodes.BoolLogic(op, ln, rn);
          case ARITH -> new Nodes.Arithmetic(op, ln, rn);
          case ORDER -> new Nodes.Order(op, ln, rn);
          case EQ -> new Nodes.Equality(false, ln, rn);
          case NE -> new Nodes.Equality(true, ln, rn);
          case LOGICAL -> new Nodes.Logical(op, ln, rn);
          case CONCAT -> new Nodes.Concat(ln, rn);
        };
      }
    };
  }

  /** Which node a call builds ({@code NodeBuilder.call}'s choice). */
  private enum CallKind { DEFAULT, INIT, IS_DEFINED, WHEN, UPDATE, LATCH, STRICT }

  private static NodeRecipe call(Ast.Call c, boolean scalar, CheckedSpec spec) {
    CallKind kind = switch (c.function()) {
      case "default" -> CallKind.DEFAULT;
      case "init" -> CallKind.INIT;
      case "is_defined" -> CallKind.IS_DEFINED;
      case "when" -> CallKind.WHEN;
      case "update" -> CallKind.UPDATE;
      case "latch" -> CallKind.LATCH;
      case "List.map", "List.filter", "List.fold" -> throw new Unsupported();
      default -> CallKind.STRICT;
    };
    NodeRecipe[] args = all(c.args(), spec);
    String function = c.function();
    String key = c.key();
    return new NodeRecipe(scalar) {
      @Override
      Node node(StreamCell[] cells, List<Committable> commits) {
        Node[] a = makeAll(args, cells, commits);
        return switch (kind) {
          case DEFAULT -> new TemporalNodes.Default(a[0], a[1]);
          case INIT -> new TemporalNodes.Init(a[0], a[1]);
          case IS_DEFINED -> new TemporalNodes.IsDefined(a[0]);
          case WHEN -> new TemporalNodes.When(a[0]);
          case UPDATE -> new TemporalNodes.Update(a[0], a[1]);
          case LATCH -> new TemporalNodes.Latch(a[0], a[1]);
          // the operator is looked up per build, as NodeBuilder does (never shared)
          case STRICT -> new Builtins.Strict(function, a, Builtins.op(function, key));
        };
      }
    };
  }
}
