package io.dataflow.monitor.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Value;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SnapshotWalkPlanTest;
import io.dataflow.monitor.TypingMode;
import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The snapshot walk's field accessors ({@link FieldAccess}: by offset with {@code Unsafe}, or
 * by reflection) read and write exactly what reflection does: on fields of every type, on every
 * field the walk plans of seeded generated specifications reach (in the live objects of a
 * monitor that has run), and on fields {@code Unsafe} refuses (a record's, a hidden class's),
 * which stay reflective. The snapshot and restore suites run whichever way this JVM takes;
 * the build runs them once more with {@value FieldAccess#REFLECTIVE_PROPERTY} (the
 * {@code reflective-fields} executions of dataflow-monitor and dataflow-testkit). A failure
 * names its seed.
 */
class FieldAccessTest {
  private static final int SPECS = 300;

  @SuppressWarnings("unused")
  static final class Holder {
    Object ref;
    boolean z;
    long j;
    int i;
    short s;
    byte b;
    char c;
    double d;
    float f;
  }

  record Pair(long x, Object y) {}

  @Test
  void theModeFollowsTheProperty() {
    boolean reflective = Boolean.getBoolean(FieldAccess.REFLECTIVE_PROPERTY);
    System.out.println("FieldAccessTest: fields by offset: " + FieldAccess.UNSAFE);
    if (reflective) {
      assertThat(FieldAccess.UNSAFE).isFalse();
    }
    FieldAccess a = FieldAccess.of(field(Holder.class, "j"));
    assertThat(a.direct()).isEqualTo(FieldAccess.UNSAFE);
    assertThat(FieldAccess.reflective(field(Holder.class, "j")).direct()).isFalse();
  }

  @Test
  void everyTypeReadsAndWritesAsReflectionDoes() throws Exception {
    long seed = Long.getLong("dataflow.seed", 0x15F1E1DL);
    System.out.println("FieldAccessTest: seed " + seed + " (replay with -Ddataflow.seed=" + seed
        + ")");
    Random rnd = new Random(seed);
    Holder h = new Holder();
    for (Field f : Holder.class.getDeclaredFields()) {
      f.setAccessible(true);
      FieldAccess direct = FieldAccess.of(f);
      FieldAccess reflective = FieldAccess.reflective(f);
      for (int round = 0; round < 200; round++) {
        long bits = rnd.nextInt(4) == 0 ? edge(rnd) : rnd.nextLong();
        boolean bool = rnd.nextBoolean();
        if (f.getType() == Object.class) {
          Object o = new Object();
          f.set(h, o);
          assertThat(direct.get(h)).isSameAs(o);
          continue;
        }
        boolean intOverflow = f.getType() == int.class && (int) bits != bits;
        for (FieldAccess writer : new FieldAccess[] {direct, reflective}) {
          Holder w = new Holder();
          if (intOverflow) {
            assertThatThrownBy(() -> writer.setPrimitive(w, bool, bits))
                .isInstanceOf(ArithmeticException.class);
            assertThat(f.getInt(w)).isZero();
            continue;
          }
          writer.setPrimitive(w, bool, bits);
          assertThat(read(direct, w)).as("%s, bits %d", f.getName(), bits)
              .isEqualTo(read(reflective, w)).isEqualTo(expected(f, bool, bits));
        }
      }
    }
  }

  @Test
  void aRecordsAndAHiddenClasssFieldsStayReflective() throws Exception {
    Pair p = new Pair(42, "y");
    for (Field f : Pair.class.getDeclaredFields()) {
      f.setAccessible(true);
      FieldAccess a = FieldAccess.of(f);
      assertThat(a.direct()).as(f.getName()).isFalse();
      assertThat(f.getType() == long.class ? a.getLong(p) : a.get(p)).isEqualTo(f.get(p));
    }
    long captured = 7L;
    LongSupplier lambda = () -> captured + 1;
    assertThat(lambda.getClass().isHidden()).isTrue();
    for (Field f : lambda.getClass().getDeclaredFields()) {
      f.setAccessible(true);
      FieldAccess a = FieldAccess.of(f);
      assertThat(a.direct()).as(f.getName()).isFalse();
      assertThat(a.getLong(lambda)).isEqualTo(7L);
    }
  }

  /**
   * Every field the walk plans of seeded generated specifications reach, in a monitor that has
   * run some ticks: the same object or value read either way; every primitive state field
   * written through one accessor reads back the same through the other; the monitor's snapshot
   * is unchanged after the fields are put back.
   */
  @Test
  void theWalkPlansFieldsReadAndWriteTheSameEitherWay() throws Exception {
    long base = Long.getLong("dataflow.seed", 0x15C0FFEEL);
    System.out.println("FieldAccessTest: specifications from seed " + base + " (replay with "
        + "-Ddataflow.seed=" + base + ")");
    Field evaluatorField = DataflowMonitor.class.getDeclaredField("evaluator");
    evaluatorField.setAccessible(true);
    int fields = 0;
    for (int k = 0; k < SPECS; k++) {
      long seed = base + k;
      String text = SnapshotWalkPlanTest.spec(new Random(seed));
      try {
        DataflowProgram program = DataflowProgram.compile("gen.dsrv", text,
            TypingMode.GRADUAL);
        DataflowMonitor m = DataflowMonitor.create(program,
            DataflowMonitor.Options.DEFAULT.withFused(seed % 2 == 0));
        Random rnd = new Random(~seed);
        int ticks = 1 + rnd.nextInt(12);
        for (int t = 0; t < ticks && m.failure() == null; t++) {
          Map<String, Value> row = SnapshotWalkPlanTest.row(rnd);
          try {
            m.evaluate(row);
          } catch (RuntimeException e) {
            break; // a failed tick: its state is still walked
          }
        }
        byte[] before = m.snapshot().toBytes();
        Evaluator ev = (Evaluator) evaluatorField.get(m);
        for (StreamCell cell : ev.cells()) {
          fields += check(cell, rnd);
        }
        assertThat(m.snapshot().toBytes()).as("snapshot after the fields are put back")
            .isEqualTo(before);
      } catch (AssertionError | Exception e) {
        throw new AssertionError("seed=" + seed + " (replay with -Ddataflow.seed=" + seed
            + "):\n" + text, e);
      }
    }
    assertThat(fields).as("fields compared").isGreaterThan(SPECS);
  }

  /** Compares the accessors on the cell's plan; the number of fields compared. */
  private static int check(StreamCell cell, Random rnd) throws Exception {
    StateWalker.Scratch scratch = new StateWalker.Scratch();
    StateWalker.WalkPlan p = StateWalker.walkPlan(cell, scratch);
    if (p == null) {
      return 0;
    }
    assertThat(StateWalker.resolve(p, cell.root, scratch)).isTrue();
    Object[] objects = Arrays.copyOf(scratch.objects, p.size());
    Arrays.fill(scratch.objects, null);
    int n = 0;
    for (int i = 1; i < p.size(); i++) {
      FieldAccess via = p.via[i];
      if (via != null) {
        Object from = objects[p.parent[i]];
        assertThat(via.get(from)).isSameAs(FieldAccess.reflective(via.field).get(from))
            .isSameAs(objects[i]);
        n++;
      }
    }
    for (int i = 0; i < p.size(); i++) {
      StateWalker.Plan plan = p.plans[i];
      if (plan == null) {
        continue;
      }
      Object o = objects[i];
      for (FieldAccess a : plan.stateAccess) {
        FieldAccess r = FieldAccess.reflective(a.field);
        Class<?> t = a.field.getType();
        if (!t.isPrimitive()) {
          assertThat(a.get(o)).as(a.field.toString()).isSameAs(r.get(o));
        } else {
          Object original = read(r, o);
          assertThat(read(a, o)).as(a.field.toString()).isEqualTo(original);
          long bits = t == int.class ? rnd.nextInt() : rnd.nextLong();
          boolean bool = rnd.nextBoolean();
          a.setPrimitive(o, bool, bits);
          assertThat(read(r, o)).as(a.field.toString()).isEqualTo(read(a, o))
              .isEqualTo(expected(a.field, bool, bits));
          if (original instanceof Boolean z) {
            r.setPrimitive(o, z, 0);
          } else {
            r.setPrimitive(o, false, ((Number) original).longValue());
          }
        }
        n++;
      }
    }
    return n;
  }

  private static Object read(FieldAccess a, Object o) {
    Class<?> t = a.field.getType();
    if (t == boolean.class) {
      return a.getBoolean(o);
    } else if (t == double.class) {
      return Double.doubleToRawLongBits(a.getDouble(o));
    } else if (t == float.class) {
      return java.lang.Float.floatToRawIntBits(a.getFloat(o));
    } else if (t.isPrimitive()) {
      return a.getLong(o);
    }
    return a.get(o);
  }

  /** What {@code setPrimitive(bool, bits)} stores in a field of this type, as read. */
  private static Object expected(Field f, boolean bool, long bits) {
    Class<?> t = f.getType();
    if (t == boolean.class) {
      return bool;
    } else if (t == double.class) {
      return bits;
    } else if (t == float.class) {
      return (int) bits;
    } else if (t == long.class) {
      return bits;
    } else if (t == int.class) {
      return (long) (int) bits;
    } else if (t == short.class) {
      return (long) (short) bits;
    } else if (t == byte.class) {
      return (long) (byte) bits;
    }
    return (long) (char) bits;
  }

  private static long edge(Random rnd) {
    long[] edges = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE,
        Integer.MAX_VALUE, 0xFFFFL, 0x8000L, 0x80L, 0x7FF8000000000000L};
    return edges[rnd.nextInt(edges.length)];
  }

  private static Field field(Class<?> c, String name) {
    try {
      Field f = c.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (NoSuchFieldException e) {
      throw new AssertionError(e);
    }
  }
}
