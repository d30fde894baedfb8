package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;

/**
 * The time-related operators of docs/language.md#time: delays ({@code e[n]}, n &gt; 0),
 * {@code default}, {@code init}, {@code is_defined}, {@code when}, {@code update} and
 * {@code latch}.
 */
public final class TemporalNodes {
  private TemporalNodes() {}

  /**
   * A delay reading a ring: Deferred until {@code n} samples were committed, then the sample
   * from {@code n} ticks ago; a NoVal sample repeats the delay's own last non-NoVal result.
   */
  public abstract static class DelayRead extends Node {
    public final int offset;
    /** The delay's own last non-NoVal result: operator state. */
    public final Slot last = new Slot();

    DelayRead(int offset) {
      this.offset = offset;
    }

    final void readFrom(HistoryRing ring) {
      if (ring.size() < offset) {
        setDeferred();
        last.setDeferred();
        return;
      }
      ring.read(offset, this);
      if (tag == Kind.NOVAL) {
        set(last);
      } else {
        last.set(this);
      }
    }
  }

  /** {@code name[n]}: reads the stream's shared history ring; no same-tick dependency. */
  @Derived // readFrom writes the result on every path; last is the state
  public static final class HistoryRead extends DelayRead {
    public HistoryRing ring;

    HistoryRead(HistoryRing ring, int offset) {
      super(offset);
      this.ring = ring;
    }

    @Override
    public void eval() {
      readFrom(ring);
    }
  }

  /** {@code (expr)[n]}: evaluates its operand every tick and keeps its own ring. */
  public static final class Delay extends DelayRead implements Committable {
    final Node operand;
    final HistoryRing ring;
    final Slot pending = new Slot();

    Delay(Node operand, int offset) {
      super(offset);
      this.operand = operand;
      this.ring = new HistoryRing(offset);
    }

    @Override
    public void eval() {
      pending.setNoVal();
      operand.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {operand};
    }

    @Override
    public void compute() {
      pending.set(operand);
      readFrom(ring);
    }

    @Override
    public void commit() {
      ring.push(pending);
      pending.setNoVal();
    }
  }

  /** {@code default(e, d)}: {@code d} (raw) when the lifted {@code e} is Deferred. */
  @Derived // compute() writes the result on every path
  public static final class Default extends Node {
    public final Node value;
    public final Node fallback;
    public final Slot held = new Slot();

    Default(Node value, Node fallback) {
      this.value = value;
      this.fallback = fallback;
    }

    @Override
    public void eval() {
      value.eval();
      fallback.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {value, fallback};
    }

    @Override
    public void compute() {
      Slot v = Slot.lift(value, held);
      set(v.tag == Kind.DEFERRED ? fallback : v);
    }
  }

  /** {@code init(e, d)}: {@code d} until {@code e} is first non-NoVal, then {@code e} raw. */
  public static final class Init extends Node {
    final Node value;
    final Node initial;
    boolean started;

    Init(Node value, Node initial) {
      this.value = value;
      this.initial = initial;
    }

    @Override
    public void eval() {
      value.eval();
      initial.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {value, initial};
    }

    @Override
    public void compute() {
      if (!started && value.tag != Kind.NOVAL) {
        started = true;
      }
      set(started ? value : initial);
    }
  }

  /** {@code is_defined(e)}: the lifted {@code e} is not Deferred. */
  public static final class IsDefined extends Node {
    final Node value;
    final Slot held = new Slot();

    IsDefined(Node value) {
      this.value = value;
    }

    @Override
    public void eval() {
      value.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {value};
    }

    @Override
    public void compute() {
      setBool(Slot.lift(value, held).tag != Kind.DEFERRED);
    }
  }

  /** {@code when(e)}: false until the lifted {@code e} is first present, then true forever. */
  public static final class When extends Node {
    final Node value;
    final Slot held = new Slot();
    boolean fired;

    When(Node value) {
      this.value = value;
    }

    @Override
    public void eval() {
      value.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {value};
    }

    @Override
    public void compute() {
      if (Slot.lift(value, held).isPresent()) {
        fired = true;
      }
      setBool(fired);
    }
  }

  /** {@code update(a, b)}: lifted {@code a} until lifted {@code b} is first present. */
  public static final class Update extends Node {
    final Node base;
    final Node replacement;
    final Slot heldBase = new Slot();
    final Slot heldReplacement = new Slot();
    boolean switched;

    Update(Node base, Node replacement) {
      this.base = base;
      this.replacement = replacement;
    }

    @Override
    public void eval() {
      base.eval();
      replacement.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {base, replacement};
    }

    @Override
    public void compute() {
      Slot a = Slot.lift(base, heldBase);
      Slot b = Slot.lift(replacement, heldReplacement);
      if (b.isPresent()) {
        switched = true;
      }
      set(switched ? b : a);
    }
  }

  /** {@code latch(v, t)}: NoVal when {@code t} is raw NoVal, else the lifted {@code v}. */
  public static final class Latch extends Node {
    final Node value;
    final Node trigger;
    final Slot held = new Slot();

    Latch(Node value, Node trigger) {
      this.value = value;
      this.trigger = trigger;
    }

    @Override
    public void eval() {
      value.eval();
      trigger.eval();
      compute();
    }

    @Override
    public Node[] inputs() {
      return new Node[] {value, trigger};
    }

    @Override
    public void compute() {
      Slot v = Slot.lift(value, held);
      if (trigger.tag == Kind.NOVAL) {
        setNoVal();
      } else {
        set(v);
      }
    }
  }
}
