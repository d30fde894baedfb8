package io.dataflow.monitor.eval;

import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Ast.Expr;
import io.dataflow.monitor.lang.CheckedSpec;
import io.dataflow.monitor.lang.CompileError;
import io.dataflow.monitor.lang.Compiler;
import io.dataflow.monitor.lang.Diagnostics;
import io.dataflow.monitor.lang.Parser;
import io.dataflow.monitor.lang.Type;
import io.dataflow.monitor.lang.Typer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles and instantiates dynamic-property bodies for one monitor. Compiled bodies are cached
 * by (occurrence, text) in a bounded LRU map, so a text seen before costs no recompilation;
 * every activation still gets fresh state.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class DynamicBodies {
  /** A body compiled and checked for one occurrence: immutable, reusable. */
  record Template(String text, Expr expr, Map<Expr, Type> types, Map<String, Integer> depths,
      Type resultType) {}

  /**
   * Ticks a body runs interpreted before it gets generated code (texts that churn never do).
   */
  public static final int FUSE_AFTER = 256;

  /** The evaluator whose streams the bodies read (the replacement's, after a transfer). */
  Evaluator evaluator;
  private final Map<Object, Template> cache;
  private int compilations;

  DynamicBodies(Evaluator evaluator, int capacity) {
    this.evaluator = evaluator;
    this.cache = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Object, Template> eldest) {
        return size() > capacity;
      }
    };
  }

  /** How many texts were compiled (cache misses); for tests and status. */
  int compilations() {
    return compilations;
  }

  private record Key(DynamicNode node, String text) {}

  Template template(DynamicNode node, String text) {
    Key key = new Key(node, text);
    Template t = cache.get(key);
    if (t == null) {
      t = compile(node, text);
      compilations++;
      cache.put(key, t);
    }
    return t;
  }

  private Template compile(DynamicNode node, String text) {
    String file = "<" + node.kindWord() + " in " + node.owner.name + ">";
    Expr expr;
    try {
      expr = Parser.parseExpression(file, text);
    } catch (CompileError e) {
      throw bodyError(text, e);
    }
    CheckedSpec spec = evaluator.spec();
    Diagnostics diags = new Diagnostics(file);
    Map<String, Integer> depths = new HashMap<>();
    new ScopeCheck(node, diags, depths).walk(expr);
    Map<Expr, Type> types = Typer.checkBody(expr, Typer.streamTypes(spec.streams(),
        spec.typing()), spec.typing(), diags);
    Type produced = types.get(expr);
    Type expected = node.expectedType();
    if (diags.isEmpty() && produced != null && !Type.consistent(produced, expected)) {
      diags.error(expr.pos(), "the property has type " + produced + " but " + expected
          + " is expected");
    }
    try {
      diags.throwIfAny();
    } catch (CompileError e) {
      throw bodyError(text, e);
    }
    Type check = Type.subtype(produced, expected) ? null : expected;
    return new Template(text, expr, types, Map.copyOf(depths), check);
  }

  /** Whether two templates of the same text were typed alike (their nodes would be alike). */
  /**
   * What {@link #sameTyping} compares, as text (snapshots keep it, to decide in another program
   * whether a body keeps its state without the template it was compiled to).
   */
  static String typingSignature(Template t) {
    StringBuilder sb = new StringBuilder();
    sb.append(t.resultType()).append('|').append(new java.util.TreeMap<>(t.depths())).append('|');
    appendTypes(t.expr(), t.types(), sb);
    return sb.toString();
  }

  private static void appendTypes(Expr e, Map<Expr, Type> types, StringBuilder sb) {
    sb.append(types.get(e)).append('(');
    for (Expr c : Compiler.children(e)) {
      appendTypes(c, types, sb);
    }
    sb.append(')');
  }

  static boolean sameTyping(Template a, Template b) {
    return a.text().equals(b.text()) && java.util.Objects.equals(a.resultType(), b.resultType())
        && a.depths().equals(b.depths()) && sameTypes(a.expr(), a.types(), b.expr(), b.types());
  }

  private static boolean sameTypes(Expr a, Map<Expr, Type> at, Expr b, Map<Expr, Type> bt) {
    if (!java.util.Objects.equals(at.get(a), bt.get(b))) {
      return false;
    }
    Expr[] ca = Compiler.children(a);
    Expr[] cb = Compiler.children(b);
    if (ca.length != cb.length) {
      return false;
    }
    for (int i = 0; i < ca.length; i++) {
      if (!sameTypes(ca[i], at, cb[i], bt)) {
        return false;
      }
    }
    return true;
  }

  private static EvalError bodyError(String text, CompileError e) {
    String loc = e.location().line() + ":" + e.location().column();
    return new EvalError("invalid dynamic property " + io.dataflow.core.ValueFormat.quote(text)
        + " at " + loc + ": " + e.reason());
  }

  /** Checks names against the scope and collects the history depth of each stream read. */
  private final class ScopeCheck {
    private final DynamicNode node;
    private final Diagnostics diags;
    private final Map<String, Integer> depths;
    private final Deque<Set<String>> locals = new ArrayDeque<>();

    ScopeCheck(DynamicNode node, Diagnostics diags, Map<String, Integer> depths) {
      this.node = node;
      this.diags = diags;
      this.depths = depths;
    }

    void walk(Expr e) {
      if (e instanceof Ast.Var v) {
        name(v);
        return;
      }
      if (e instanceof Ast.Index ix && ix.offset() > 0 && ix.target() instanceof Ast.Var v
          && !isLocal(v.name())) {
        if (name(v)) {
          depths.merge(v.name(), ix.offset(), Math::max);
        }
        return;
      }
      if (e instanceof Ast.Dynamic d) {
        diags.error(d.pos(), "dynamic properties cannot be nested");
        return;
      }
      if (e instanceof Ast.Lambda lam) {
        Set<String> names = new HashSet<>();
        lam.params().forEach(p -> names.add(p.name()));
        locals.push(names);
        walk(lam.body());
        locals.pop();
        return;
      }
      for (Expr c : Compiler.children(e)) {
        walk(c);
      }
    }

    private boolean isLocal(String name) {
      for (Set<String> s : locals) {
        if (s.contains(name)) {
          return true;
        }
      }
      return false;
    }

    private boolean name(Ast.Var v) {
      if (isLocal(v.name())) {
        return true;
      }
      Integer idx = evaluator.spec().byName().get(v.name());
      if (idx == null) {
        diags.error(v.pos(), "unknown stream '" + v.name() + "'");
        return false;
      }
      if (!node.inScope(v.name())) {
        diags.error(v.pos(), "stream '" + v.name() + "' is not in the scope of this "
            + node.kindWord());
        return false;
      }
      return true;
    }
  }

  /** A live body: its nodes, its own history rings and its operator state. */
  final class Instance implements Committable {
    final Template template;
    final Node root;
    /** The check of the body's result against its expected type, or null for none. */
    final TypeCheck.Compiled resultCheck;
    private final List<Committable> commits = new ArrayList<>();
    /**
     * How the body runs: {@link Interpreting} until generated code replaces it. One call site
     * for both keeps the JIT's profile honest (see {@code DataflowMonitor.Interpreted}).
     */
    private CompiledBody body = new Interpreting();
    private volatile CompiledBody pending;
    private int ticks;

    Instance(Template template) {
      this.template = template;
      Map<String, HistoryRing> rings = new HashMap<>();
      for (Map.Entry<String, Integer> e : template.depths().entrySet()) {
        StreamCell source = evaluator.cells[evaluator.spec().byName().get(e.getKey())];
        HistoryRing ring = new HistoryRing(e.getValue());
        rings.put(e.getKey(), ring);
        commits.add(() -> ring.push(source)); // the raw value of the stream at each commit
      }
      NodeBuilder builder = new NodeBuilder(evaluator.spec().byName(), template.types(),
          new BodyStreams(rings), commits, new Functions());
      this.root = builder.build(template.expr(), NodeBuilder.Locals.NONE);
      this.resultCheck = template.resultType() == null ? null
          : new TypeCheck.Compiled(template.resultType());
    }

    /** Evaluates the body once; a body that stays active gets generated code. */
    void eval() {
      body.run();
    }

    /**
     * The body through the interpreter, counting evaluations until code is generated. The
     * interpreter is reached through a method handle the JIT does not inline through (as in
     * {@code DataflowMonitor.Interpreted}): inlined at the body's call site during warm-up, it
     * made the compiled tick too big to be inlined into its caller.
     */
    private final class Interpreting implements CompiledBody {
      @Override
      public void run() {
        CompiledBody generated = pending;
        if (generated != null) {
          body = generated; // generated in the background; switch between two evaluations
          generated.run();
          return;
        }
        try {
          interpretBody.invokeExact(Instance.this);
        } catch (RuntimeException | Error e) {
          throw e;
        } catch (Throwable e) {
          throw new IllegalStateException(e);
        }
      }
    }

    /** One interpreted evaluation; the body gets generated code once it proved long-lived. */
    private void interpret() {
      root.eval();
      BodyCompiler compiler = evaluator.bodyCompiler;
      if (++ticks == FUSE_AFTER && compiler != null) {
        if (evaluator.eagerBodies) {
          CompiledBody now = compiler.compile(root);
          if (now != null) {
            body = now;
          }
        } else {
          compiler.inBackground(() -> pending = compiler.compile(root));
        }
      }
    }

    @Override
    public void commit() {
      List<Committable> list = commits;
      for (int i = 0, n = list.size(); i < n; i++) {
        list.get(i).commit();
      }
    }
  }

  // Not final: see Interpreting. Set once, by the static initializer.
  private static java.lang.invoke.MethodHandle interpretBody;

  static {
    try {
      interpretBody = java.lang.invoke.MethodHandles.lookup().findVirtual(Instance.class,
          "interpret", java.lang.invoke.MethodType.methodType(void.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Body references: run-long sample-and-hold on outer streams, evaluated on demand. */
  private final class BodyStreams implements NodeBuilder.Streams {
    private final Map<String, HistoryRing> rings;

    BodyStreams(Map<String, HistoryRing> rings) {
      this.rings = rings;
    }

    @Override
    public Node current(int stream, Ast.Var at) {
      return new OuterRead(evaluator.cells[stream]);
    }

    @Override
    public Node history(int stream, int offset) {
      HistoryRing ring = rings.get(evaluator.cells[stream].name);
      if (ring == null) {
        // Not written in the body: a delay inside an aux function the body calls. The checker
        // sized the stream's shared ring for it, as for any top-level call of that function.
        ring = evaluator.cells[stream].ring;
      }
      return new TemporalNodes.HistoryRead(ring, offset);
    }

    @Override
    public Node dynamic(Ast.Dynamic d, Node source) {
      throw new IllegalStateException("nested dynamic survived the scope check");
    }
  }

  /** Reads an outer stream from a body: evaluated on demand, absent reads the last present. */
  public static final class OuterRead extends Node {
    /** The stream read. */
    public final StreamCell cell;

    OuterRead(StreamCell cell) {
      this.cell = cell;
    }

    @Override
    public void eval() {
      if (cell.root != null) {
        cell.owner.ensureEvaluated(cell); // an input needs no evaluation
      }
      set(cell.lastPresent());
    }
  }
}
