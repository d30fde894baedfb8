package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.monitor.lang.Ast.BinOp;

/**
 * Binary operators specialized for operands whose static types are known scalars (Int, Float,
 * Bool). Same semantics as {@link Nodes.Binary} (lifting, NoVal before Deferred), but the
 * lifting memories are primitive fields, leaf operands (cells and constants) are not called,
 * and each class has its own {@code eval} so the JIT profiles each kind of node separately
 * instead of sharing one megamorphic call site.
 *
 * <p>A value outside the static type (impossible for a program that type-checked, but cheap to
 * guard) falls back to the generic operator semantics.
 *
 * <p>Each operator says once what the code generator needs ({@code codegen.TypedOperatorCode}
 * derives the per-tick, batch and dense code from it): the lifting and the absence rule are
 * {@link TypedBinary#lift()} and {@link TypedBinary#absent()}, shared by all; each operator
 * names the operand kinds it computes on ({@link TypedBinary#operandKinds()}), its result's
 * kind ({@link TypedBinary#resultKind()}) and, per operand kind, its kernel
 * ({@link TypedBinary#kernel(byte)}): the static method of {@link Ops} that its own
 * {@code compute()} calls on present operands of that kind.
 */
public final class TypedNodes {
  private TypedNodes() {}

  /**
   * The shared part: operands, their primitive lifting memories, and this tick's lifted
   * operands. Each subclass computes in its own method, so each kind of node keeps its own
   * profile (and the fused evaluator calls it on a constant receiver).
   */
  public abstract static class TypedBinary extends Node {
    public final Node left;
    public final Node right;
    final boolean leftLeaf;
    final boolean rightLeaf;
    public final BinOp op;
    // The lifting memories: public, the generated code keeps them in locals and writes back.
    public byte heldLeftTag;
    public long heldLeft;
    public byte heldRightTag;
    public long heldRight;
    /** This tick's lifted operands (set by {@link #lift()}). */
    @Derived
    byte lt;
    @Derived
    byte rt;
    @Derived
    long lv;
    @Derived
    long rv;

    TypedBinary(BinOp op, Node left, Node right) {
      this.op = op;
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

    /** The operand kinds (both operands the same) this operator computes on with a kernel. */
    public abstract byte[] operandKinds();

    /** The kind of the result on present operands of one of {@link #operandKinds()}. */
    public abstract byte resultKind();

    /**
     * The computation on present operands of {@code kind} (one of {@link #operandKinds()}):
     * the name of a public static {@code long (long, long)} method of {@link Ops} from the
     * operands' bits to the result's bits, which {@code compute()} calls too.
     */
    public abstract String kernel(byte kind);

    /** Sample-and-hold on both operands, after they were evaluated. */
    final void lift() {
      byte t = left.tag;
      if (t == Kind.NOVAL) {
        lt = heldLeftTag;
        lv = heldLeft;
      } else {
        lt = t;
        lv = left.bits;
        heldLeftTag = t;
        heldLeft = lv;
      }
      t = right.tag;
      if (t == Kind.NOVAL) {
        rt = heldRightTag;
        rv = heldRight;
      } else {
        rt = t;
        rv = right.bits;
        heldRightTag = t;
        heldRight = rv;
      }
    }

    /** NoVal before Deferred; returns true when the result is one of them. */
    final boolean absent() {
      if (lt == Kind.NOVAL || rt == Kind.NOVAL) {
        setNoVal();
        return true;
      }
      if (lt == Kind.DEFERRED || rt == Kind.DEFERRED) {
        setDeferred();
        return true;
      }
      return false;
    }
  }

  /** {@code + - * / %} on two Ints. */
  @Derived // compute() writes the result on every path
  public static final class IntArith extends TypedBinary {
    private final int code;

    IntArith(BinOp op, Node left, Node right) {
      super(op, left, right);
      this.code = op.ordinal();
    }

    private static final byte[] KINDS = {Kind.INT};

    @Override
    public byte[] operandKinds() {
      return KINDS;
    }

    @Override
    public byte resultKind() {
      return Kind.INT;
    }

    @Override
    public String kernel(byte kind) {
      return switch (op) { // as compute() below
        case ADD -> "addInt";
        case SUB -> "subInt";
        case MUL -> "mulInt";
        case DIV -> "div";
        default -> "mod";
      };
    }

    @Override
    public void compute() {
      lift();
      if (lt == Kind.INT && rt == Kind.INT) {
        tag = Kind.INT;
        ref = null;
        switch (code) {
          case 0: // ADD
            bits = Ops.addInt(lv, rv);
            return;
          case 1: // SUB
            bits = Ops.subInt(lv, rv);
            return;
          case 2: // MUL
            bits = Ops.mulInt(lv, rv);
            return;
          case 3: // DIV
            bits = Ops.div(lv, rv);
            return;
          default: // MOD
            bits = Ops.mod(lv, rv);
            return;
        }
      }
      if (!absent()) {
        Ops.arithmetic(op, left, right, this); // a value outside the static type
      }
    }
  }

  /** {@code < <= > >=} on two numbers (Int or Float, mixed allowed). */
  @Derived // compute() writes the result on every path (or fails the tick)
  public static final class NumCompare extends TypedBinary {
    private final int code;

    NumCompare(BinOp op, Node left, Node right) {
      super(op, left, right);
      this.code = op == BinOp.LT ? 0 : op == BinOp.LE ? 1 : op == BinOp.GT ? 2 : 3;
    }

    private static final byte[] KINDS = {Kind.INT, Kind.FLOAT};

    @Override
    public byte[] operandKinds() {
      return KINDS;
    }

    @Override
    public byte resultKind() {
      return Kind.BOOL;
    }

    @Override
    public String kernel(byte kind) {
      String name = code == 0 ? "lt" : code == 1 ? "le" : code == 2 ? "gt" : "ge";
      return name + (kind == Kind.FLOAT ? "Float" : "Int");
    }

    /** The kernels of {@link #kernel}, by operand kind. */
    private long kernel(boolean floats, long x, long y) {
      switch (code) {
        case 0:
          return floats ? Ops.ltFloat(x, y) : Ops.ltInt(x, y);
        case 1:
          return floats ? Ops.leFloat(x, y) : Ops.leInt(x, y);
        case 2:
          return floats ? Ops.gtFloat(x, y) : Ops.gtInt(x, y);
        default:
          return floats ? Ops.geFloat(x, y) : Ops.geInt(x, y);
      }
    }

    @Override
    public void compute() {
      lift();
      boolean result;
      if (lt == Kind.FLOAT && rt == Kind.FLOAT) {
        result = kernel(true, lv, rv) != 0;
      } else if (lt == Kind.INT && rt == Kind.INT) {
        result = kernel(false, lv, rv) != 0;
      } else if (absent()) {
        return;
      } else if ((lt == Kind.INT || lt == Kind.FLOAT) && (rt == Kind.INT || rt == Kind.FLOAT)) {
        result = compare(lt == Kind.INT ? (double) lv : Double.longBitsToDouble(lv),
            rt == Kind.INT ? (double) rv : Double.longBitsToDouble(rv));
      } else {
        result = Ops.order(op, left, right); // a value outside the static type
      }
      tag = Kind.BOOL;
      bits = result ? 1 : 0;
      ref = null;
    }

    private boolean compare(double x, double y) {
      switch (code) {
        case 0:
          return x < y;
        case 1:
          return x <= y;
        case 2:
          return x > y;
        default:
          return x >= y;
      }
    }
  }

  /** {@code && || =>} on two Bools (strict: both sides always evaluated). */
  @Derived // compute() writes the result on every path (or fails the tick)
  public static final class BoolLogic extends TypedBinary {
    BoolLogic(BinOp op, Node left, Node right) {
      super(op, left, right);
    }

    private static final byte[] KINDS = {Kind.BOOL};

    @Override
    public byte[] operandKinds() {
      return KINDS;
    }

    @Override
    public byte resultKind() {
      return Kind.BOOL;
    }

    @Override
    public String kernel(byte kind) {
      return op == BinOp.AND ? "and" : op == BinOp.OR ? "or" : "implies";
    }

    @Override
    public void compute() {
      lift();
      if (lt == Kind.BOOL && rt == Kind.BOOL) {
        tag = Kind.BOOL;
        bits = op == BinOp.AND ? Ops.and(lv, rv) : op == BinOp.OR ? Ops.or(lv, rv)
            : Ops.implies(lv, rv); // the kernels of kernel()
        ref = null;
      } else if (!absent()) {
        throw Ops.operands(op.symbol, left, right);
      }
    }
  }
}
