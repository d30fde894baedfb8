package io.dataflow.monitor;

import io.dataflow.core.Kind;

/**
 * The time-related operators of docs/language.md#time: delays ({@code e[n]}, n &gt; 0),
 * {@code default}, {@code init}, {@code is_defined}, {@code when}, {@code update} and
 * {@code latch}.
 */
final class TemporalNodes {
  private TemporalNodes() {}

  /**
   * A delay reading a ring: Deferred until {@code n} samples were committed, then the sample
   * from {@code n} ticks ago; a NoVal sample repeats the delay's own last non-NoVal result.
   */
  abstract static class DelayRead extends Node {
    final int offset;
    /** The delay's own last non-NoVal result: operator state. */
    final Slot last = new Slot();

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
  static final class HistoryRead extends DelayRead {
    HistoryRing ring;

    HistoryRead(HistoryRing ring, int offset) {
      super(offset);
      this.ring = ring;
    }

    @Override
    void eval() {
      readFrom(ring);
    }
  }

  /** {@code (expr)[n]}: evaluates its operand every tick and keeps its own ring. */
  static final class Delay extends DelayRead implements Committable {
    final Node operand;
    final HistoryRing ring;
    final Slot pending = new Slot();

    Delay(Node operand, int offset) {
      super(offset);
      this.operand = operand;
      this.ring = new HistoryRing(offset);
    }

    @Override
    void eval() {
      pending.setNoVal();
      operand.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {operand};
    }

    @Override
    void compute() {
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
  static final class Default extends Node {
    final Node value;
    final Node fallback;
    final Slot held = new Slot();

    Default(Node value, Node fallback) {
      this.value = value;
      this.fallback = fallback;
    }

    @Override
    void eval() {
      value.eval();
      fallback.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {value, fallback};
    }

    @Override
    void compute() {
      Slot v = Slot.lift(value, held);
      set(v.tag == Kind.DEFERRED ? fallback : v);
    }
  }

  /** {@code init(e, d)}: {@code d} until {@code e} is first non-NoVal, then {@code e} raw. */
  static final class Init extends Node {
    final Node value;
    final Node initial;
    boolean started;

    Init(Node value, Node initial) {
      this.value = value;
      this.initial = initial;
    }

    @Override
    void eval() {
      value.eval();
      initial.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {value, initial};
    }

    @Override
    void compute() {
      if (!started && value.tag != Kind.NOVAL) {
        started = true;
      }
      set(started ? value : initial);
    }
  }

  /** {@code is_defined(e)}: the lifted {@code e} is not Deferred. */
  static final class IsDefined extends Node {
    final Node value;
    final Slot held = new Slot();

    IsDefined(Node value) {
      this.value = value;
    }

    @Override
    void eval() {
      value.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {value};
    }

    @Override
    void compute() {
      setBool(Slot.lift(value, held).tag != Kind.DEFERRED);
    }
  }

  /** {@code when(e)}: false until the lifted {@code e} is first present, then true forever. */
  static final class When extends Node {
    final Node value;
    final Slot held = new Slot();
    boolean fired;

    When(Node value) {
      this.value = value;
    }

    @Override
    void eval() {
      value.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {value};
    }

    @Override
    void compute() {
      if (Slot.lift(value, held).isPresent()) {
        fired = true;
      }
      setBool(fired);
    }
  }

  /** {@code update(a, b)}: lifted {@code a} until lifted {@code b} is first present. */
  static final class Update extends Node {
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
    void eval() {
      base.eval();
      replacement.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {base, replacement};
    }

    @Override
    void compute() {
      Slot a = Slot.lift(base, heldBase);
      Slot b = Slot.lift(replacement, heldReplacement);
      if (b.isPresent()) {
        switched = true;
      }
      set(switched ? b : a);
    }
  }

  /** {@code latch(v, t)}: NoVal when {@code t} is raw NoVal, else the lifted {@code v}. */
  static final class Latch extends Node {
    final Node value;
    final Node trigger;
    final Slot held = new Slot();

    Latch(Node value, Node trigger) {
      this.value = value;
      this.trigger = trigger;
    }

    @Override
    void eval() {
      value.eval();
      trigger.eval();
      compute();
    }

    @Override
    Node[] inputs() {
      return new Node[] {value, trigger};
    }

    @Override
    void compute() {
      Slot v = Slot.lift(value, held);
      if (trigger.tag == Kind.NOVAL) {
        setNoVal();
      } else {
        set(v);
      }
    }
  }
}
