package io.dataflow.monitor.eval;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Every state-bearing object of one evaluator, found once by the walk of {@link StateWalker}
 * (the same objects and fields a snapshot saves) and sorted by how {@link KeyedLayout} keeps
 * them: value slots, history rings, typed lifting memories and flags (the primary state); and
 * the state that normally equals something else (derived state: a root's result is its stream's
 * value, a typed operator's lifted operands are its memories, constants and the computed
 * streams' held present values never change).
 *
 * <p>The walk refuses (returns null from {@link #of}) what it cannot lay out as fixed-size
 * state: dynamic bodies, lambda call sites, and any state field it does not know, so a node
 * type added later falls back to a monitor per key instead of losing state.
 */
final class StateInventory {
  final List<Slot> slots = new ArrayList<>();
  final List<HistoryRing> rings = new ArrayList<>();
  final List<TypedNodes.TypedBinary> typed = new ArrayList<>();
  final List<TemporalNodes.Init> inits = new ArrayList<>();
  final List<TemporalNodes.When> whens = new ArrayList<>();
  final List<TemporalNodes.Update> updates = new ArrayList<>();
  final List<Slot> aliases = new ArrayList<>();
  final List<Slot> aliasSources = new ArrayList<>();
  final List<Slot> constants = new ArrayList<>();
  final List<Node> nodes = new ArrayList<>();
  /** The classes and sizes met, in order: two layouts of one shape read each other's vectors. */
  final StringBuilder shape = new StringBuilder();

  private static final Set<String> TYPED_FIELDS = Set.of("heldLeftTag", "heldLeft",
      "heldRightTag", "heldRight", "lt", "lv", "rt", "rv");

  private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
  private final IdentityHashMap<Node, StreamCell> roots = new IdentityHashMap<>();

  private static final class Refused extends RuntimeException {
    Refused() {
      super(null, null, false, false);
    }
  }

  /** The inventory of {@code e}'s state, or null when it cannot be laid out compactly. */
  static StateInventory of(Evaluator e) {
    if (e.spec().hasDynamic() || e.spec().hasLambda()) {
      return null;
    }
    StateInventory inv = new StateInventory();
    try {
      inv.scan(e);
    } catch (Refused r) {
      return null;
    }
    return inv;
  }

  private void scan(Evaluator e) {
    for (StreamCell c : e.cells) {
      if (c.root != null) {
        roots.put(c.root, c);
      }
    }
    for (StreamCell c : e.cells) {
      slots.add(c);
      // Only inputs write their held present value when no dynamic body exists to read it.
      (c.root == null ? slots : constants).add(c.heldPresent());
      if (c.ring != null) {
        rings.add(c.ring);
      }
      shape.append(c.name).append(c.ring == null ? 0 : c.ring.depth()).append(';');
    }
    for (StreamCell c : e.cells) {
      if (c.root != null) {
        visit(c.root);
      }
    }
  }

  private void visit(Object o) {
    if (o == null || o instanceof StreamCell || !seen.add(o)) {
      return;
    }
    if (o instanceof Object[] array) {
      for (Object x : array) {
        visit(x);
      }
      return;
    }
    if (o instanceof List<?> list) {
      for (Object x : list.toArray()) {
        visit(x);
      }
      return;
    }
    if (o instanceof HistoryRing ring) {
      if (!ring.ofCell) {
        rings.add(ring);
        shape.append("ring").append(ring.depth()).append(';');
      }
      return;
    }
    if (!o.getClass().getPackageName().equals(StateWalker.class.getPackageName())
        || StateWalker.skipped(o)) {
      return;
    }
    if (o instanceof Functions.CallSite || o instanceof DynamicNode
        || o instanceof Functions.LambdaNode) {
      throw new Refused();
    }
    shape.append(o.getClass().getName()).append(';');
    if (o instanceof Node n) {
      nodes.add(n);
      StreamCell cell = roots.get(n);
      if (n instanceof Nodes.Const) {
        constants.add(n);
      } else if (cell != null) {
        aliases.add(n);
        aliasSources.add(cell);
      } else {
        slots.add(n);
      }
    } else if (o instanceof Slot s) {
      slots.add(s);
    }
    for (Field f : StateWalker.stateFields(o.getClass())) {
      Object v = StateWalker.get(f, o);
      if (v instanceof Slot s) {
        addSlot(s);
      } else if (v instanceof Slot[] array) {
        shape.append(array.length).append(';');
        for (Slot s : array) {
          addSlot(s);
        }
      } else {
        primitive(o, f);
      }
    }
    for (Field f : StateWalker.children(o.getClass())) {
      visit(StateWalker.get(f, o));
    }
  }

  private void addSlot(Slot s) {
    if (s instanceof Node) {
      throw new Refused(); // a node as a memory: not a shape the layout knows
    }
    if (seen.add(s)) {
      slots.add(s);
    }
  }

  /** A primitive state field: one of those the layout keeps, or a refusal. */
  private void primitive(Object o, Field f) {
    Class<?> owner = f.getDeclaringClass();
    String name = f.getName();
    if (owner == Node.class && name.equals("scalar")) {
      return; // set when the node is built: in nodes
    }
    if (owner == TypedNodes.TypedBinary.class && TYPED_FIELDS.contains(name)) {
      TypedNodes.TypedBinary t = (TypedNodes.TypedBinary) o;
      if (typed.isEmpty() || typed.get(typed.size() - 1) != t) {
        typed.add(t);
      }
      return; // its eight fields go together
    }
    if (owner == TemporalNodes.Init.class && name.equals("started")) {
      inits.add((TemporalNodes.Init) o);
    } else if (owner == TemporalNodes.When.class && name.equals("fired")) {
      whens.add((TemporalNodes.When) o);
    } else if (owner == TemporalNodes.Update.class && name.equals("switched")) {
      updates.add((TemporalNodes.Update) o);
    } else {
      throw new Refused();
    }
  }
}
