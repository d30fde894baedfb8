package io.dataflow.monitor.lang;

import io.dataflow.monitor.lang.Ast.Expr;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Name and dependency analysis: builds the stream table, resolves every name, finds missing,
 * duplicate and misplaced equations, self-references without a positive delay and same-tick
 * cycles, and computes the history depth of every stream and the evaluation order.
 */
public final class Checker {
  /** One declared stream with its (single) equation, or null for inputs. */
  public record Stream(int index, Ast.StreamKind kind, String name, Type declared, Ast.Pos pos,
      Ast.Equation equation) {}

  /** What the checker found. */
  record Result(List<Stream> streams, Map<String, Integer> byName, int[] historyDepth,
      int[] order, List<BitSet> sameTickDeps) {}

  private final Diagnostics diags;
  private final List<Stream> streams = new ArrayList<>();
  private final Map<String, Integer> byName = new LinkedHashMap<>();

  private Checker(Diagnostics diags) {
    this.diags = diags;
  }

  /** Checks a parsed specification; errors are added to {@code diags}. */
  static Result check(Ast.Spec spec, Diagnostics diags) {
    return new Checker(diags).run(spec);
  }

  private Result run(Ast.Spec spec) {
    Map<String, Ast.Equation> equations = collectEquations(spec);
    for (int i = 0; i < streams.size(); i++) {
      Stream s = streams.get(i);
      streams.set(i, new Stream(s.index(), s.kind(), s.name(), s.declared(), s.pos(),
          equations.get(s.name())));
      if (s.kind() != Ast.StreamKind.IN && !equations.containsKey(s.name())) {
        diags.error(s.pos(), "missing equation for " + s.kind().word() + " stream '"
            + s.name() + "'");
      }
    }
    int n = streams.size();
    int[] depth = new int[n];
    List<BitSet> deps = new ArrayList<>(n);
    for (Stream s : streams) {
      BitSet d = new BitSet(n);
      if (s.equation() != null) {
        new Walker(s, d, depth).walk(s.equation().expr(), false);
      }
      deps.add(d);
    }
    reportCycles(deps);
    int[] order = diags.isEmpty() ? order(deps) : new int[0];
    return new Result(List.copyOf(streams), Map.copyOf(byName), depth, order, deps);
  }

  private Map<String, Ast.Equation> collectEquations(Ast.Spec spec) {
    Map<String, Ast.Equation> equations = new HashMap<>();
    for (Ast.Decl d : spec.decls()) {
      if (byName.containsKey(d.name())) {
        diags.error(d.pos(), "duplicate declaration of stream '" + d.name() + "'");
        continue;
      }
      byName.put(d.name(), streams.size());
      streams.add(new Stream(streams.size(), d.kind(), d.name(), d.type(), d.pos(), null));
      if (d.inline() != null) {
        equations.put(d.name(), d.inline());
      }
    }
    for (Ast.Equation eq : spec.equations()) {
      Integer idx = byName.get(eq.name());
      if (idx == null) {
        diags.error(eq.pos(), "equation for undeclared stream '" + eq.name() + "'");
      } else if (streams.get(idx).kind() == Ast.StreamKind.IN) {
        diags.error(eq.pos(), "input stream '" + eq.name() + "' cannot have an equation");
      } else if (equations.containsKey(eq.name())) {
        diags.error(eq.pos(), "duplicate equation for stream '" + eq.name() + "'");
      } else {
        equations.put(eq.name(), eq);
      }
    }
    return equations;
  }

  /** Walks one equation, recording same-tick dependencies and history depths. */
  private final class Walker {
    private final Stream owner;
    private final BitSet deps;
    private final int[] depth;
    private final Deque<Set<String>> locals = new ArrayDeque<>();

    Walker(Stream owner, BitSet deps, int[] depth) {
      this.owner = owner;
      this.deps = deps;
      this.depth = depth;
    }

    /** {@code inCallback}: inside a List.map/filter/fold callback, where state is banned. */
    void walk(Expr e, boolean inCallback) {
      if (e instanceof Ast.Lit) {
        return;
      }
      if (e instanceof Ast.Var v) {
        reference(v, false);
      } else if (e instanceof Ast.Unary u) {
        walk(u.operand(), inCallback);
      } else if (e instanceof Ast.Binary b) {
        walk(b.left(), inCallback);
        walk(b.right(), inCallback);
      } else if (e instanceof Ast.If i) {
        walk(i.cond(), inCallback);
        walk(i.then(), inCallback);
        walk(i.otherwise(), inCallback);
      } else if (e instanceof Ast.Index ix) {
        if (inCallback && ix.offset() > 0) {
          diags.error(ix.pos(), "temporal operator e[" + ix.offset()
              + "] is not allowed inside a List.map/filter/fold callback");
        }
        if (ix.offset() > 0 && ix.target() instanceof Ast.Var v && !isLocal(v.name())) {
          reference(v, true);
          Integer idx = byName.get(v.name());
          if (idx != null) {
            depth[idx] = Math.max(depth[idx], ix.offset());
          }
        } else {
          walk(ix.target(), inCallback);
        }
      } else if (e instanceof Ast.ListLit l) {
        l.elements().forEach(x -> walk(x, inCallback));
      } else if (e instanceof Ast.MapLit m) {
        m.values().forEach(x -> walk(x, inCallback));
      } else if (e instanceof Ast.Call c) {
        call(c, inCallback);
      } else if (e instanceof Ast.Dynamic d) {
        if (inCallback) {
          diags.error(d.pos(), "dynamic properties are not allowed inside a List.map/filter/"
              + "fold callback");
        }
        walk(d.source(), inCallback);
        if (d.scope() != null) {
          for (String name : d.scope()) {
            if (!byName.containsKey(name)) {
              diags.error(d.pos(), "unknown stream '" + name + "' in the scope of "
                  + d.kind().name().toLowerCase(java.util.Locale.ROOT));
            }
          }
        }
      } else if (e instanceof Ast.Lambda lam) {
        Set<String> names = new HashSet<>();
        for (Ast.Param p : lam.params()) {
          if (!names.add(p.name())) {
            diags.error(p.pos(), "duplicate parameter '" + p.name() + "'");
          }
        }
        locals.push(names);
        walk(lam.body(), inCallback);
        locals.pop();
      } else if (e instanceof Ast.Apply a) {
        walk(a.function(), inCallback);
        a.args().forEach(x -> walk(x, inCallback));
      } else {
        throw new IllegalStateException("unhandled node " + e);
      }
    }

    private void call(Ast.Call c, boolean inCallback) {
      boolean stateful = switch (c.function()) {
        case "init", "when", "update", "latch" -> true;
        default -> false;
      };
      if (inCallback && stateful) {
        diags.error(c.pos(), "temporal operator " + c.function()
            + " is not allowed inside a List.map/filter/fold callback");
      }
      boolean higherOrder = c.function().equals("List.map") || c.function().equals("List.filter")
          || c.function().equals("List.fold");
      for (int i = 0; i < c.args().size(); i++) {
        walk(c.args().get(i), inCallback || (higherOrder && i == 0));
      }
    }

    private boolean isLocal(String name) {
      for (Set<String> scope : locals) {
        if (scope.contains(name)) {
          return true;
        }
      }
      return false;
    }

    private void reference(Ast.Var v, boolean delayed) {
      if (isLocal(v.name())) {
        return;
      }
      Integer idx = byName.get(v.name());
      if (idx == null) {
        diags.error(v.pos(), "unknown stream '" + v.name() + "'");
        return;
      }
      if (delayed) {
        return;
      }
      if (idx == owner.index()) {
        diags.error(v.pos(), "stream '" + v.name()
            + "' refers to itself without a positive delay (write " + v.name() + "[1])");
        return;
      }
      deps.set(idx);
    }
  }

  /** Reports one error per same-tick cycle, naming the streams in it. */
  private void reportCycles(List<BitSet> deps) {
    int n = deps.size();
    int[] state = new int[n]; // 0 new, 1 on stack, 2 done
    Set<Set<Integer>> reported = new HashSet<>();
    for (int start = 0; start < n; start++) {
      if (state[start] == 0) {
        findCycles(start, deps, state, new ArrayList<>(), reported);
      }
    }
  }

  private void findCycles(int v, List<BitSet> deps, int[] state, List<Integer> path,
      Set<Set<Integer>> reported) {
    state[v] = 1;
    path.add(v);
    BitSet d = deps.get(v);
    for (int w = d.nextSetBit(0); w >= 0; w = d.nextSetBit(w + 1)) {
      if (state[w] == 1) {
        List<Integer> cycle = new ArrayList<>(path.subList(path.indexOf(w), path.size()));
        if (reported.add(new HashSet<>(cycle))) {
          reportCycle(cycle);
        }
      } else if (state[w] == 0) {
        findCycles(w, deps, state, path, reported);
      }
    }
    path.remove(path.size() - 1);
    state[v] = 2;
  }

  private void reportCycle(List<Integer> cycle) {
    // Start the cycle at the stream declared first, so the message is stable.
    int first = 0;
    for (int i = 1; i < cycle.size(); i++) {
      if (cycle.get(i) < cycle.get(first)) {
        first = i;
      }
    }
    StringBuilder sb = new StringBuilder("same-tick dependency cycle: ");
    for (int i = 0; i <= cycle.size(); i++) {
      sb.append(streams.get(cycle.get((first + i) % cycle.size())).name());
      if (i < cycle.size()) {
        sb.append(" -> ");
      }
    }
    Stream head = streams.get(cycle.get(first));
    Ast.Pos at = head.equation() != null ? head.equation().pos() : head.pos();
    diags.error(at, sb.append(" (break it with a positive delay such as x[1])").toString());
  }

  /** Topological order of the computed streams; ties keep declaration order. */
  static int[] order(List<BitSet> deps) {
    int n = deps.size();
    int[] pending = new int[n];
    List<List<Integer>> users = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      users.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      BitSet d = deps.get(i);
      pending[i] = d.cardinality();
      for (int w = d.nextSetBit(0); w >= 0; w = d.nextSetBit(w + 1)) {
        users.get(w).add(i);
      }
    }
    PriorityQueue<Integer> ready = new PriorityQueue<>();
    for (int i = 0; i < n; i++) {
      if (pending[i] == 0) {
        ready.add(i);
      }
    }
    int[] order = new int[n];
    int k = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      order[k++] = v;
      for (int u : users.get(v)) {
        if (--pending[u] == 0) {
          ready.add(u);
        }
      }
    }
    if (k != n) {
      throw new IllegalStateException("cycle survived the checker");
    }
    return order;
  }
}
