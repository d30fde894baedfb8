package io.dataflow.testkit;

import io.dataflow.core.Value;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An independent, deliberately naive evaluator of generated specs, written from the language
 * reference only (docs/language.md#types, docs/language.md#lifting and docs/language.md#time; not
 * from the monitor's code), used as an oracle: each operator node keeps its own lifting memories,
 * delays keep a ring of raw samples committed after the row and their own last result, and the
 * computed streams are evaluated in generation order (a valid dependency order). It covers exactly
 * what {@link SpecGenerator} produces and assumes no runtime error can happen (a spec that is not
 * risky); it throws {@link IllegalStateException} if one would.
 */
final class ReferenceModel {
  private final GeneratedSpec spec;
  /** Per computed stream, its root node and every node of its expression. */
  private final Map<String, Node> roots = new HashMap<>();
  private final Map<String, List<Node>> nodes = new HashMap<>();
  private List<Node> building;
  /** The current values of this tick; shared with a successor after a transfer. */
  private final Map<String, Value> now;
  /** Per stream read as {@code name[n]}: its raw samples, newest last. */
  private final Map<String, ArrayDeque<Value>> histories;
  private final Map<String, Integer> depths = new HashMap<>();
  /** Per computed stream, the depth of each history its expression reads. */
  private final Map<String, Map<String, Integer>> delayDepths = new HashMap<>();
  private String current;
  private long tick;

  ReferenceModel(GeneratedSpec spec) {
    this.spec = spec;
    this.now = new HashMap<>();
    this.histories = new HashMap<>();
    for (GeneratedSpec.Stream s : spec.computed()) {
      build(s);
    }
  }

  /**
   * The model after a request replacing the spec by {@code target} with context transfer
   * (docs/reconfiguration.md#state-transfer): histories move by name and type, resized to the new
   * depth (keeping the newest samples); a stream with the same name, type and expression keeps its
   * operator state (its nodes); every other stream starts cold.
   */
  ReferenceModel transfer(GeneratedSpec target) {
    return new ReferenceModel(this, target);
  }

  private ReferenceModel(ReferenceModel donor, GeneratedSpec target) {
    this.spec = target;
    this.now = donor.now;
    this.histories = donor.histories;
    this.tick = donor.tick;
    for (GeneratedSpec.Stream s : target.computed()) {
      java.util.Optional<GeneratedSpec.Stream> old = donor.spec.stream(s.name());
      if (old.isPresent() && old.get().role() != GeneratedSpec.Role.IN
          && old.get().type() == s.type() && old.get().expression().equals(s.expression())) {
        roots.put(s.name(), donor.roots.get(s.name()));
        nodes.put(s.name(), donor.nodes.get(s.name()));
      } else {
        build(s);
      }
    }
    // Depths of the kept streams' delays count too.
    for (GeneratedSpec.Stream s : target.computed()) {
      if (nodes.get(s.name()) == donor.nodes.get(s.name())) {
        delayDepths.put(s.name(), donor.depthsOf(s));
        donor.depthsOf(s).forEach((name, n) -> depths.merge(name, n, Math::max));
      }
    }
    for (String name : List.copyOf(histories.keySet())) {
      java.util.Optional<GeneratedSpec.Stream> before = donor.spec.stream(name);
      java.util.Optional<GeneratedSpec.Stream> after = target.stream(name);
      ArrayDeque<Value> ring = histories.get(name);
      int depth = depths.getOrDefault(name, 0);
      if (depth == 0) {
        histories.remove(name);
        continue;
      }
      if (before.isEmpty() || before.get().type() != after.get().type()) {
        ring.clear(); // a history moves only to a variable of the same name and type
        continue;
      }
      while (ring.size() > depth) {
        ring.removeFirst();
      }
    }
  }

  private Map<String, Integer> depthsOf(GeneratedSpec.Stream s) {
    return delayDepths.getOrDefault(s.name(), Map.of());
  }

  private void build(GeneratedSpec.Stream s) {
    building = new ArrayList<>();
    current = s.name();
    roots.put(s.name(), new ExprParser(s.expression(), this).parse());
    nodes.put(s.name(), building);
    building = null;
  }

  /** Records that the stream being built reads {@code name[n]}. */
  void noteDelay(String name, int n) {
    depths.merge(name, n, Math::max);
    delayDepths.computeIfAbsent(current, k -> new HashMap<>()).merge(name, n, Math::max);
    histories.computeIfAbsent(name, k -> new ArrayDeque<>());
  }

  /** The output lines over the trace (ticks numbered on from earlier runs). */
  List<String> run(List<Map<String, Value>> trace) {
    List<String> lines = new ArrayList<>();
    for (Map<String, Value> row : trace) {
      now.clear();
      for (GeneratedSpec.Stream in : spec.inputs()) {
        now.put(in.name(), row.getOrDefault(in.name(), Value.NOVAL));
      }
      for (GeneratedSpec.Stream s : spec.computed()) {
        now.put(s.name(), roots.get(s.name()).eval());
      }
      for (List<Node> ns : nodes.values()) {
        for (Node n : ns) {
          n.commit();
        }
      }
      for (Map.Entry<String, ArrayDeque<Value>> h : histories.entrySet()) {
        h.getValue().addLast(now.get(h.getKey()));
        while (h.getValue().size() > depths.getOrDefault(h.getKey(), 0)) {
          h.getValue().removeFirst();
        }
      }
      for (GeneratedSpec.Stream o : spec.outputs()) {
        Value v = now.get(o.name());
        if (v != Value.NOVAL) {
          lines.add(o.name() + "[" + tick + "] = " + v);
        }
      }
      tick++;
    }
    return lines;
  }

  // ---------------------------------------------------------------- nodes

  /** An expression node; its fields are its operator state. */
  abstract static class Node {
    abstract Value eval();

    /** Called once per tick after the whole row was evaluated. */
    void commit() {}
  }

  /** Sample-and-hold lifting of one operand (docs/language.md#lifting). */
  static final class Held {
    private Value last = Value.NOVAL;

    Value lift(Value v) {
      if (v == Value.NOVAL) {
        return last;
      }
      last = v;
      return v;
    }
  }

  private <T extends Node> T add(T n) {
    building.add(n);
    return n;
  }

  Node constant(Value v) {
    return add(new Node() {
      @Override
      Value eval() {
        return v;
      }
    });
  }

  /** A bare reference: the current raw value, NoVal included. */
  Node reference(String name) {
    return add(new Node() {
      @Override
      Value eval() {
        Value v = now.get(name);
        if (v == null) {
          throw new IllegalStateException(name + " read before it was evaluated");
        }
        return v;
      }
    });
  }

  /** {@code e[0]}: the current value, lifted. */
  Node current(Node e) {
    Held h = new Held();
    return add(new Node() {
      @Override
      Value eval() {
        return h.lift(e.eval());
      }
    });
  }

  /**
   * {@code e[n]}, n > 0: Deferred until n samples were committed, then the raw sample from n
   * ticks ago, or the delay's own last non-NoVal result when that sample is NoVal. A direct
   * name reads the stream's history; a compound operand is evaluated every tick and its
   * samples are the delay's own state.
   */
  Node delay(Node e, int n, String directName) {
    if (directName != null) {
      noteDelay(directName, n);
    }
    ArrayDeque<Value> own = new ArrayDeque<>();
    return add(new Node() {
      private Value last = Value.NOVAL;
      private Value sample;

      @Override
      Value eval() {
        ArrayDeque<Value> ring = directName != null ? histories.get(directName) : own;
        if (directName == null) {
          sample = e.eval();
        }
        Value r;
        if (ring == null || ring.size() < n) {
          r = Value.DEFERRED;
        } else {
          Value old = new ArrayList<>(ring).get(ring.size() - n);
          r = old == Value.NOVAL ? last : old;
        }
        if (r != Value.NOVAL) {
          last = r;
        }
        return r;
      }

      @Override
      void commit() {
        if (directName == null) {
          own.addLast(sample);
          if (own.size() > n) {
            own.removeFirst();
          }
        }
      }
    });
  }

  /** A strict operator: every operand lifted; NoVal, else Deferred, else the result. */
  interface Op {
    Value apply(Value[] args);
  }

  Node strict(Op op, Node... args) {
    Held[] held = new Held[args.length];
    for (int i = 0; i < args.length; i++) {
      held[i] = new Held();
    }
    return add(new Node() {
      @Override
      Value eval() {
        Value[] v = new Value[args.length];
        boolean noVal = false;
        boolean deferred = false;
        for (int i = 0; i < args.length; i++) {
          v[i] = held[i].lift(args[i].eval());
          noVal |= v[i] == Value.NOVAL;
          deferred |= v[i] == Value.DEFERRED;
        }
        return noVal ? Value.NOVAL : deferred ? Value.DEFERRED : op.apply(v);
      }
    });
  }

  /** {@code default(e, d)}: lifted e, or d (raw, this tick) while lifted e is Deferred. */
  Node defaultOf(Node e, Node d) {
    Held h = new Held();
    return add(new Node() {
      @Override
      Value eval() {
        Value v = h.lift(e.eval());
        Value dv = d.eval();
        return v == Value.DEFERRED ? dv : v;
      }
    });
  }

  /** {@code init(e, d)}: d until e is first non-NoVal, then e raw. */
  Node init(Node e, Node d) {
    return add(new Node() {
      private boolean started;

      @Override
      Value eval() {
        Value v = e.eval();
        Value dv = d.eval();
        started |= v != Value.NOVAL;
        return started ? v : dv;
      }
    });
  }

  /** {@code is_defined(e)}: lifted e is not Deferred. */
  Node isDefined(Node e) {
    Held h = new Held();
    return add(new Node() {
      @Override
      Value eval() {
        return Value.of(h.lift(e.eval()) != Value.DEFERRED);
      }
    });
  }

  /** {@code when(e)}: false until lifted e is first present, then true forever. */
  Node when(Node e) {
    Held h = new Held();
    return add(new Node() {
      private boolean seen;

      @Override
      Value eval() {
        seen |= h.lift(e.eval()).isPresent();
        return Value.of(seen);
      }
    });
  }

  /** {@code update(a, b)}: lifted a until lifted b is first present, then lifted b. */
  Node update(Node a, Node b) {
    Held ha = new Held();
    Held hb = new Held();
    return add(new Node() {
      private boolean switched;

      @Override
      Value eval() {
        Value av = ha.lift(a.eval());
        Value bv = hb.lift(b.eval());
        switched |= bv.isPresent();
        return switched ? bv : av;
      }
    });
  }

  /** {@code latch(v, t)}: NoVal when t is raw NoVal, else lifted v (lifted every tick). */
  Node latch(Node v, Node t) {
    Held h = new Held();
    return add(new Node() {
      @Override
      Value eval() {
        Value vv = h.lift(v.eval());
        return t.eval() == Value.NOVAL ? Value.NOVAL : vv;
      }
    });
  }

  /** {@code if}: lifted condition and branches; a NoVal branch gives NoVal. */
  Node ifThenElse(Node c, Node a, Node b) {
    Held hc = new Held();
    Held ha = new Held();
    Held hb = new Held();
    return add(new Node() {
      @Override
      Value eval() {
        Value cv = hc.lift(c.eval());
        Value av = ha.lift(a.eval());
        Value bv = hb.lift(b.eval());
        if (av == Value.NOVAL || bv == Value.NOVAL) {
          return Value.NOVAL;
        }
        if (cv == Value.DEFERRED || cv == Value.NOVAL) {
          return cv;
        }
        return ((Value.Bool) cv).value() ? av : bv;
      }
    });
  }
}
