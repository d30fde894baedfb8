package io.dataflow.monitor.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Value;
import io.dataflow.monitor.lang.CheckedSpec;
import io.dataflow.monitor.lang.Compiler;
import io.dataflow.monitor.lang.TypingLevel;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A recipe builds the tree {@code NodeBuilder} builds: same nodes, flags, reads and commits. */
class NodeRecipeTest {
  private static final String[] SPECS = {
      "in x: Int\nout z: Int\nz = default(z[1], 0) + x\n",
      "in x: Int\nin y: Int\nout a: Int\nout b: Bool\nout c: Bool\n"
          + "a = if x > y then x * 2 - y else -x % 3\nb = a >= 0 and not (x == y)\n"
          + "c = b or x != 1\n",
      "in x\nin y\nout a\nout b\nout c\na = x + y * x[1]\nb = if x < y then x else y\n"
          + "c = a == b\n",
      "in x: Float\nout f: Float\nout g: Bool\nf = default(f[2], 1.5) / x\ng = f <= x\n",
      "in x: Int\nout d\nout e\nout h\nout i\nout j\nout k\n"
          + "d = init(x, 0)\ne = is_defined(x[1])\nh = when(x > 2)\ni = update(d, x)\n"
          + "j = latch(x > 1, x)\nk = (x + 1)[2]\n",
      "in s: Str\nin x: Int\nout t\nout u\nt = s ++ \"!\"\nu = abs(x) + x[0]\n",
      "in x: Int\nout l\nout m\nl = [x, x + 1, 3]\nm = {\"b\": x, \"a\": l}\n",
  };

  @Test
  void recipesBuildWhatTheBuilderBuilds() throws Exception {
    int compared = 0;
    for (String source : SPECS) {
      for (TypingLevel typing : TypingLevel.values()) {
        CheckedSpec spec;
        try {
          spec = Compiler.compile("t.dsrv", source, typing);
        } catch (RuntimeException e) {
          continue; // not every spec is valid at every typing level
        }
        Evaluator ev = new Evaluator(spec, 0, new Evaluator.BodySettings(16, null, false),
            () -> { }, null, null);
        for (StreamCell c : ev.cells()) {
          if (c.root == null) {
            continue;
          }
          assertThat(ev.recipe(c.index)).as("recipe of %s in\n%s", c.name, source).isNotNull();
          List<Committable> built = new ArrayList<>();
          Node expected = ev.buildWithoutRecipe(c.index, built);
          List<Committable> fromRecipe = new ArrayList<>();
          Node actual = ev.recipe(c.index).make(ev.cells(), fromRecipe);
          same(expected, actual, c.name + " in\n" + source);
          assertThat(fromRecipe).hasSameSizeAs(built);
          for (int i = 0; i < built.size(); i++) {
            assertThat(fromRecipe.get(i).getClass()).isEqualTo(built.get(i).getClass());
          }
          assertThat(actual).as("a fresh tree per build").isNotSameAs(
              ev.recipe(c.index).make(ev.cells(), new ArrayList<>()));
          compared++;
        }
      }
    }
    assertThat(compared).isGreaterThan(30);
  }

  @Test
  void equationsWithFunctionsHaveNoRecipe() {
    CheckedSpec spec = Compiler.compile("t.dsrv",
        "in x: Int\nout z\nz = List.map(\\v -> v + 1, [x])\n", TypingLevel.GRADUAL);
    Evaluator ev = new Evaluator(spec, 0, new Evaluator.BodySettings(16, null, false),
        () -> { }, null, null);
    assertThat(ev.recipe(spec.byName().get("z"))).isNull();
  }

  private static void same(Object a, Object b, String where) throws IllegalAccessException {
    if (a instanceof StreamCell) {
      assertThat(b).as(where).isSameAs(a); // a read of the evaluator's own cell
      return;
    }
    assertThat(b.getClass()).as(where).isEqualTo(a.getClass());
    for (Class<?> k = a.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        f.setAccessible(true);
        Object x = f.get(a);
        Object y = f.get(b);
        String at = where + " / " + k.getSimpleName() + "." + f.getName();
        if (x == null || y == null) {
          assertThat(y).as(at).isEqualTo(x);
        } else if (x instanceof StreamCell || x instanceof Evaluator) {
          assertThat(y).as(at).isSameAs(x);
        } else if (x instanceof Node[] xs) {
          Node[] ys = (Node[]) y;
          assertThat(ys.length).as(at).isEqualTo(xs.length);
          for (int i = 0; i < xs.length; i++) {
            same(xs[i], ys[i], at + "[" + i + "]");
          }
        } else if (x instanceof Node) {
          same(x, y, at);
        } else if (x instanceof HistoryRing xr && xr.ofCell) {
          assertThat(y).as(at).isSameAs(x);
        } else if (f.getType().isPrimitive() || x instanceof Enum<?> || x instanceof String
            || x instanceof Value || x instanceof Number || x instanceof Boolean) {
          assertThat(y).as(at).isEqualTo(x);
        } else {
          assertThat(y.getClass()).as(at).isEqualTo(x.getClass());
          if (!(x instanceof Slot) && !(x instanceof Slot[]) && !(x instanceof HistoryRing)
              && !x.getClass().isSynthetic() && !x.getClass().getName().contains("$$Lambda")) {
            assertThat(y).as(at + " (not shared)").isNotSameAs(x);
          }
        }
      }
    }
  }
}
