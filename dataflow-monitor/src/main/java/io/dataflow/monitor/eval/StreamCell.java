package io.dataflow.monitor.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything a monitor keeps for one stream: its current value (this slot), its root node, its
 * history ring, its run-long last non-NoVal value, and the operator state to commit.
 *
 * <p>Nodes refer to streams only through these objects, never by index, so a reconfiguration
 * that keeps a stream can hand its cell, with the nodes that read it, to the next monitor.
 *
 * <p>The public fields and methods are what the monitor (its handles) and the generated code
 * read and call; the rest is the evaluator's.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class StreamCell extends Node {
  static final StreamCell[] NONE = new StreamCell[0];
  /** The stream's name. */
  public final String name;
  /** The evaluator that currently owns this cell (changes when state is transferred). */
  public Evaluator owner;
  /** The stream's index in its owner's program. */
  public int index;
  /** The equation's node, or null for an input. */
  public Node root;
  /**
   * The recipe that built {@link #root} (the evaluator sets it with the root), or null: the
   * snapshot walk of a tree built by a recipe follows that recipe's flattened plan
   * ({@link StateWalker}).
   */
  NodeRecipe rootRecipe;
  /** The last samples, or null when nothing reads this stream's history. */
  public HistoryRing ring;
  /**
   * With {@link #lastPresent()}: the last non-NoVal value of the whole run (read by dynamic
   * bodies). It is kept lazily: saved only when a NoVal replaces a value that was not NoVal, and
   * read only while the cell holds NoVal, so a tick with present values stores nothing. Inputs
   * always keep it, so a body activated by a later reconfiguration still sees an input that
   * arrived before; computed streams keep it in programs with dynamic properties.
   *
   * <p>Null until a value is first held or the slot is first asked for ({@link #held()}): most
   * cells of a restored monitor never need one (docs/decisions.md, "A monitor makes its handles
   * and held values on first use"). Once made, it is the same slot for the cell's life (the
   * keyed kernel's layout keeps it by identity).
   */
  private Slot heldPresent;

  /** A NoVal that is only read (what {@link #heldOrNoVal()} returns before a value was held). */
  private static final Slot NO_HELD = new Slot();
  /** Operator state committed after each successful row. */
  public final List<Committable> commits = new ArrayList<>(0);
  /** Whether {@link #commits} may grow while ticks run (lambda call sites register lazily). */
  public boolean commitsGrow;
  /** The streams this one reads this tick in the owner's program (dynamic programs only). */
  StreamCell[] sameTick = NONE;
  long evaluatedAt = -1;
  boolean inProgress;

  StreamCell(String name, int index, Evaluator owner) {
    this.name = name;
    this.index = index;
    this.owner = owner;
  }

  @Override
  public void eval() {}

  /** Before this tick's value (of kind {@code newTag}) replaces the cell's: see heldPresent. */
  public void overwriting(byte newTag) {
    if (newTag == io.dataflow.core.Kind.NOVAL && tag != io.dataflow.core.Kind.NOVAL) {
      held().set(this);
    }
  }

  /** The held slot, made on first use. */
  private Slot held() {
    Slot h = heldPresent;
    if (h == null) {
      h = heldPresent = new Slot();
    }
    return h;
  }

  /** The run's last non-NoVal value (NoVal before the first one). */
  public Slot lastPresent() {
    return tag == io.dataflow.core.Kind.NOVAL ? held() : this;
  }

  /**
   * Takes a value staged for the next step (an input handle's) into this input's cell; the
   * staged value goes back to NoVal: an input not set again is NoVal in the next step. Called by
   * the interpreter and by generated code.
   */
  public void take(Slot staged) {
    byte t = staged.tag;
    overwriting(t);
    if (t == io.dataflow.core.Kind.NOVAL) {
      setNoVal();
    } else {
      setRaw(t, staged.bits, staged.ref);
      staged.tag = io.dataflow.core.Kind.NOVAL;
    }
  }

  /** Generated batch code: the run's last present value, while the cell holds NoVal. */
  public void holdPresent(byte presentTag, long presentBits) {
    held().setRaw(presentTag, presentBits, null);
  }

  /** Snapshots: the held last present value as it is (see heldPresent), stale or not. */
  Slot heldPresent() {
    return held();
  }

  /** Snapshot writers: the held value to read, without making the slot (never written). */
  Slot heldOrNoVal() {
    Slot h = heldPresent;
    return h == null ? NO_HELD : h;
  }

  /** Snapshot restore: this cell's value and the run's last present value. */
  /** {@link #restore} of a value and a last present value given as their parts. */
  void restoreRaw(byte tag, long bits, Object ref, byte presentTag, long presentBits,
      Object presentRef) {
    setRaw(tag, bits, ref);
    if (heldPresent != null || presentTag != io.dataflow.core.Kind.NOVAL) {
      held().setRaw(presentTag, presentBits, presentRef);
    }
  }

  void restore(Slot current, Slot present) {
    set(current);
    if (heldPresent != null || present.tag != io.dataflow.core.Kind.NOVAL) {
      held().set(present);
    }
  }

  /** Forgets the run's last present value (and so this cell's value, until it is next set). */
  void forgetPresent() {
    if (heldPresent != null) {
      heldPresent.setNoVal();
    }
    setNoVal();
  }

  /** Commits this stream's operator state (its list may grow: lambda call sites). */
  public void commitAll() {
    List<Committable> list = commits;
    for (int i = 0, n = list.size(); i < n; i++) {
      list.get(i).commit();
    }
  }

  @Override
  public boolean isLeaf() {
    return true;
  }

  @Override
  public String toString() {
    return name + "=" + super.toString();
  }
}
