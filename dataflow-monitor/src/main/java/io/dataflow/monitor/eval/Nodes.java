package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.monitor.lang.Ast.BinOp;

/**
 * The operator nodes: constants, stream cells, unary and binary operators, {@code if} and
 * {@code e[0]}. Every operator lifts its operands (sample-and-hold, docs/language.md#lifting) and
 * is strict in absence: NoVal wins over Deferred, which wins over a computed result.
 */
public final class Nodes {
  private Nodes() {}

  /** A stream's current value; written by the monitor, read by every consumer. */
  public static final class Cell extends Node {
    final String name;

    Cell(String name) {
      this.name = name;
    }

    @Override
    public void eval() {}

    @Override
    public boolean isLeaf() {
      return true;
    }
  }

  /** A literal. */
  @Derived // the program's constant, set when built
  public static final class Const extends Node {
    Const(Value v) {
      setValue(v);
    }

    @Override
    public void eval() {}

    @Override
    public boolean isLeaf() {
      return true;
    }
  }

  /** A unary operator with its operand's lifting memory. */
  abstract static class Unary extends Node {
    final Node operand;
    final Slot held = new Slot();

    Unary(Node operand) {
      this.operand = operand;
    }

    @Override
    public final void eval() {
      operand.eval();
      compute();
    }

    @Override
    public final Node[] inputs() {
      return new Node[] {operand};
    }

    @Override
    public final void compute() {
      Slot x = Slot.lift(operand, held);
      if (x.tag <= Kind.DEFERRED) {
        tag = x.tag;
        ref = null;
        return;
      }
      apply(x);
    }

    abstract void apply(Slot x);
  }

  /** {@code -e}. */
  public static final class Neg extends Unary {
    Neg(Node operand) {
      super(operand);
    }

    @Override
    void apply(Slot x) {
      if (x.tag == Kind.INT) {
        if (x.bits == Long.MIN_VALUE) {
          throw new EvalError("integer overflow in '-' (-(" + x.bits + "))");
        }
        setInt(-x.bits);
      } else if (x.tag == Kind.FLOAT) {
        setFloat(-Double.longBitsToDouble(x.bits));
      } else {
        throw Ops.operand("-", x);
      }
    }
  }

  /** {@code !e}. */
  public static final class Not extends Unary {
    Not(Node operand) {
      super(operand);
    }

    @Override
    void apply(Slot x) {
      setBool(!Ops.bool("operator '!'", x));
    }
  }

  /** A binary operator with one lifting memory per operand. */
  abstract static class Binary extends Node {
    final Node left;
    final Node right;
    final boolean leftLeaf;
    final boolean rightLeaf;
    final Slot heldLeft = new Slot();
    final Slot heldRight = new Slot();

    Binary(Node left, Node right) {
      this.left = left;
      this.right = right;
      this.leftLeaf = left.isLeaf();
      this.rightLeaf = right.isLeaf();
    }

    @Override
    public final void eval() {
      if (!leftLeaf) {
        left.eval();
      }
      if (!rightLeaf) {
        right.eval();
      }
      compute();
    }

    @Override
    public final Node[] inputs() {
      return new Node[] {left, right};
    }

    @Override
    public final void compute() {
      Slot x = Slot.lift(left, heldLeft);
      Slot y = Slot.lift(right, heldRight);
      if (x.tag == Kind.NOVAL || y.tag == Kind.NOVAL) {
        setNoVal();
      } else if (x.tag == Kind.DEFERRED || y.tag == Kind.DEFERRED) {
        setDeferred();
      } else {
        apply(x, y);
      }
    }

    abstract void apply(Slot x, Slot y);
  }

  /** {@code + - * / % **}. */
  public static final class Arithmetic extends Binary {
    final BinOp op;

    Arithmetic(BinOp op, Node left, Node right) {
      super(left, right);
      this.op = op;
    }

    @Override
    void apply(Slot x, Slot y) {
      Ops.arithmetic(op, x, y, this);
    }
  }

  /** {@code < <= > >=}. */
  public static final class Order extends Binary {
    final BinOp op;

    Order(BinOp op, Node left, Node right) {
      super(left, right);
      this.op = op;
    }

    @Override
    void apply(Slot x, Slot y) {
      setBool(Ops.order(op, x, y));
    }
  }

  /** {@code ==} and {@code !=}. */
  public static final class Equality extends Binary {
    final boolean negate;

    Equality(boolean negate, Node left, Node right) {
      super(left, right);
      this.negate = negate;
    }

    @Override
    void apply(Slot x, Slot y) {
      setBool(Ops.equal(x, y) != negate);
    }
  }

  /** {@code && || =>}: strict, both sides always evaluated. */
  public static final class Logical extends Binary {
    final BinOp op;

    Logical(BinOp op, Node left, Node right) {
      super(left, right);
      this.op = op;
    }

    @Override
    void apply(Slot x, Slot y) {
      if (x.tag != Kind.BOOL || y.tag != Kind.BOOL) {
        throw Ops.operands(op.symbol, x, y);
      }
      boolean a = x.bits != 0;
      boolean b = y.bits != 0;
      setBool(op == BinOp.AND ? a && b : op == BinOp.OR ? a || b : !a || b);
    }
  }

  /** {@code ++} on two Strs. */
  public static final class Concat extends Binary {
    Concat(Node left, Node right) {
      super(left, right);
    }

    @Override
    void apply(Slot x, Slot y) {
      if (x.tag != Kind.STR || y.tag != Kind.STR) {
        throw Ops.operands("++", x, y);
      }
      setStr(((String) x.ref).concat((String) y.ref));
    }
  }

  /** {@code e[0]}: the current value, lifted. */
  public static final class Lift extends Node {
    final Node operand;
    final Slot held = new Slot();

    Lift(Node operand) {
      this.operand = operand;
    }

    @Override
    public void eval() {
      operand.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {operand};
    }

    @Override
    public void compute() {
      set(Slot.lift(operand, held));
    }
  }

  /**
   * {@code if c then a else b}: eager. Both branches are evaluated every tick and keep their
   * state; an error in a branch matters only when that branch is selected.
   */
  public static final class If extends Node {
    final Node cond;
    final Node then;
    final Node otherwise;
    final Slot heldCond = new Slot();
    final Slot heldThen = new Slot();
    final Slot heldOtherwise = new Slot();

    If(Node cond, Node then, Node otherwise) {
      this.cond = cond;
      this.then = then;
      this.otherwise = otherwise;
    }

    @Override
    public void eval() {
      cond.eval();
      EvalError thenError = null;
      EvalError otherwiseError = null;
      try {
        then.eval();
      } catch (EvalError e) {
        thenError = e;
      }
      try {
        otherwise.eval();
      } catch (EvalError e) {
        otherwiseError = e;
      }
      Slot c = Slot.lift(cond, heldCond);
      Slot a = thenError == null ? Slot.lift(then, heldThen) : null;
      Slot b = otherwiseError == null ? Slot.lift(otherwise, heldOtherwise) : null;
      if ((a != null && a.tag == Kind.NOVAL) || (b != null && b.tag == Kind.NOVAL)
          || c.tag == Kind.NOVAL) {
        setNoVal();
      } else if (c.tag == Kind.DEFERRED) {
        setDeferred();
      } else if (Ops.bool("the condition of if", c)) {
        if (thenError != null) {
          throw thenError;
        }
        set(a);
      } else {
        if (otherwiseError != null) {
          throw otherwiseError;
        }
        set(b);
      }
    }
  }
}
