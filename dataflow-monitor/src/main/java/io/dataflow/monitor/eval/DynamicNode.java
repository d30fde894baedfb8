package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Type;
import io.dataflow.monitor.lang.TypingLevel;
import java.util.HashSet;
import java.util.Set;

/**
 * One {@code dynamic}/{@code eval}/{@code defer} occurrence: a reconfiguration point with its
 * own evaluator (docs/dynamic-properties.md).
 *
 * <p>The source is lifted. The same text keeps the active body and its state; a different text
 * activates a fresh body (its delays start empty; an older text never revives old state);
 * {@code defer} seals the first text it accepts. A Deferred source advances the active body
 * but yields Deferred. The published result is lifted: a NoVal body result repeats the last
 * non-NoVal one.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class DynamicNode extends Node implements Committable {
  final Ast.Dynamic syntax;
  final Node source;
  final StreamCell owner;
  private final Slot heldSource = new Slot();
  private final Set<String> scope;
  /** Computed once: after a transfer the node outlives the program it was built from. */
  private final Type expected;
  private DynamicBodies.Instance active;
  /** The string object last seen to hold the active text (identity shortcut). */
  private Object activeTextRef;
  private final boolean sourceLeaf;
  private boolean sealed;
  /** Set when a transfer kept this node: the active body is checked against the new program. */
  private boolean revalidate;

  DynamicNode(Ast.Dynamic syntax, Node source, StreamCell owner) {
    this.syntax = syntax;
    this.source = source;
    this.owner = owner;
    this.scope = syntax.scope() == null ? null : new HashSet<>(syntax.scope());
    this.expected = computeExpectedType();
    this.sourceLeaf = source.isLeaf();
  }

  String kindWord() {
    return syntax.kind() == Ast.DynKind.DEFER ? "defer" : "dynamic";
  }

  boolean inScope(String name) {
    return scope == null ? !name.equals(owner.name) : scope.contains(name);
  }

  /** The type a body must produce: the annotation, else the {@code Expr<T>} of the source. */
  Type expectedType() {
    return expected;
  }

  private Type computeExpectedType() {
    if (syntax.type() != null && owner.owner.spec().typing() != TypingLevel.UNTYPED) {
      return syntax.type();
    }
    Type src = owner.owner.spec().types().get(syntax.source());
    return src instanceof Type.ExprOf e ? e.result() : Type.ANY;
  }

  /** The text of the active body, or null before the first one. */
  String activeText() {
    return active == null ? null : active.template.text();
  }

  @Override
  public void eval() {
    if (!sourceLeaf) {
      source.eval();
    }
    // The usual tick: the active body stays (sealed, or the same text again, already held).
    // Kept small so that the JIT inlines it into the stream's code; the rest is evalSource.
    DynamicBodies.Instance a = active;
    if (a != null && !revalidate && (sealed || sameTextHeld())) {
      runBody(a);
    } else {
      evalSource();
    }
  }

  /**
   * Whether the source is the active text again and the held source already is what
   * {@link #evalSource} would leave in it (so that it would store nothing).
   */
  private boolean sameTextHeld() {
    Slot s = source;
    Object text = s.ref;
    Object held = activeTextRef;
    return s.tag == Kind.STR && heldSource.ref == held && heldSource.tag == Kind.STR
        && heldSource.bits == s.bits && (text == held || text.equals(held));
  }

  /** Runs the active body and publishes its result, lifted and checked. */
  private void runBody(DynamicBodies.Instance a) {
    Node body = a.root;
    a.eval();
    if (body.tag != Kind.NOVAL) {
      publish(a, body);
    }
  }

  /** Sample-and-hold of the source, a new body when the text changed, then the body. */
  private void evalSource() {
    Slot src = source.tag == Kind.NOVAL ? heldSource : source;
    if (!(sealed && active != null)) {
      if (src != heldSource) {
        // Sample-and-hold of the source. A new string object with the active text is held as
        // the active text's own object: texts usually arrive as a new but equal string every
        // tick, and storing a new reference would pay the garbage collector's write barrier.
        Object text = src.ref;
        if (src.tag == Kind.STR && text != activeTextRef && active != null
            && text.equals(active.template.text())) {
          text = activeTextRef;
        }
        // Stores only what changed: the same text arrives every tick.
        if (heldSource.tag != src.tag) {
          heldSource.tag = src.tag;
        }
        if (heldSource.bits != src.bits) {
          heldSource.bits = src.bits;
        }
        if (heldSource.ref != text) {
          heldSource.ref = text;
        }
        src = heldSource;
      }
      if (src.tag == Kind.NOVAL || src.tag == Kind.DEFERRED) {
        if (active == null) {
          tag = src.tag;
          ref = null;
          return;
        }
      } else if (src.tag != Kind.STR) {
        throw new EvalError("the source of " + kindWord() + " must be a Str, got "
            + Kind.name(src.tag));
      } else if (src.ref != activeTextRef) {
        if (active == null || !src.ref.equals(active.template.text())) {
          install((String) src.ref);
        }
        activeTextRef = src.ref;
      }
    }
    if (revalidate && active != null) {
      revalidateActive();
    }
    Node body = active.root;
    active.eval();
    if (!sealed && src.tag == Kind.DEFERRED) {
      setDeferred();
      return;
    }
    if (body.tag == Kind.NOVAL) {
      // Lifted: this node's slot still holds its last result that was not NoVal (a body's
      // value or Deferred; NoVal until the first), so there is nothing to copy.
      return;
    }
    publish(active, body);
  }

  private void publish(DynamicBodies.Instance a, Node body) {
    TypeCheck.Compiled check = a.resultCheck;
    if (check != null && !check.matches(body)) {
      throw new EvalError(kindWord() + " property produced a value of type "
          + Kind.name(body.tag) + " but " + check + " is expected");
    }
    set(body);
  }

  /** Called when a reconfiguration kept this node and its state for another program. */
  void transferred() {
    revalidate = true;
  }

  /**
   * The active text was checked against the program that was running when it was activated.
   * It must still compile against the current one (a stream it reads may be gone, out of scope
   * or retyped): an error is a runtime error, like any bad body. When it compiles to the same
   * typing, the body keeps its state; otherwise it restarts as a fresh activation would.
   */
  private void revalidateActive() {
    DynamicBodies.Template now = owner.owner.bodies.template(this, active.template.text());
    if (!DynamicBodies.sameTyping(now, active.template)) {
      active = owner.owner.bodies.new Instance(now);
    }
    revalidate = false;
  }

  private void install(String text) {
    if (active == null) {
      // Before the first body the slot held the source's absence; from now on it holds the
      // last result that was not NoVal, of which there is none yet.
      setNoVal();
    }
    DynamicBodies bodies = owner.owner.bodies;
    active = bodies.new Instance(bodies.template(this, text));
    if (syntax.kind() == Ast.DynKind.DEFER) {
      sealed = true;
    }
    owner.owner.bodyInstalled();
  }

  /**
   * Snapshot restore: activates the body of {@code text} as it was active when the snapshot
   * was taken (its state is loaded next). Not an installation: the revision is restored
   * separately and counts it already.
   */
  void restoreBody(String text) {
    DynamicBodies bodies = owner.owner.bodies;
    active = bodies.new Instance(bodies.template(this, text));
    activeTextRef = active.template.text();
  }

  /** Snapshots: the active body, or null. */
  DynamicBodies.Instance active() {
    return active;
  }

  /** Snapshot restore: the held source is the active text's own object again. */
  void restored() {
    if (active != null && heldSource.tag == Kind.STR
        && heldSource.ref.equals(active.template.text())) {
      activeTextRef = heldSource.ref;
    }
  }

  @Override
  public void commit() {
    if (active != null) {
      active.commit();
    }
  }
}
