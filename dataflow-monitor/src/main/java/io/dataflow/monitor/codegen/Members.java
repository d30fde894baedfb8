package io.dataflow.monitor.codegen;

import io.dataflow.core.Row;
import io.dataflow.core.TickColumns;
import io.dataflow.monitor.eval.Evaluator;
import io.dataflow.monitor.eval.HistoryRing;
import io.dataflow.monitor.eval.Ops;
import io.dataflow.monitor.eval.Slot;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypeCheck;
import io.dataflow.monitor.eval.TypedNodes;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Every field and method of the evaluator that generated code names, resolved by reflection
 * when this class is initialized: a renamed or retyped member fails here, at the first code
 * generation (and in every test that generates code), not as a {@code NoSuchFieldError} in a
 * generated class. Owners and descriptors come from the classes, never from strings.
 */
final class Members {
  private Members() {}

  /** A public field, as {@code GETFIELD}/{@code PUTFIELD} name it. */
  record FieldRef(String owner, String name, String descriptor) {
    static FieldRef of(Class<?> owner, String name) {
      try {
        Field f = owner.getField(name);
        return new FieldRef(Type.getInternalName(owner), name, Type.getDescriptor(f.getType()));
      } catch (NoSuchFieldException e) {
        throw new IllegalStateException("generated code needs the public field "
            + owner.getName() + "." + name, e);
      }
    }
  }

  /** A public method, as an invoke instruction names it. */
  record MethodRef(int opcode, String owner, String name, String descriptor, boolean itf) {
    static MethodRef of(Class<?> owner, String name, Class<?>... parameters) {
      try {
        Method m = owner.getMethod(name, parameters);
        int opcode = Modifier.isStatic(m.getModifiers()) ? Opcodes.INVOKESTATIC
            : owner.isInterface() ? Opcodes.INVOKEINTERFACE : Opcodes.INVOKEVIRTUAL;
        return new MethodRef(opcode, Type.getInternalName(owner), name,
            Type.getMethodDescriptor(m), owner.isInterface());
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("generated code needs the public method "
            + owner.getName() + "." + name + Arrays.toString(parameters), e);
      }
    }

    /** {@code compute()} or {@code commit()} on a receiver of its exact class. */
    static MethodRef exact(Object receiver, String name) {
      return of(receiver.getClass(), name);
    }
  }

  static final FieldRef SLOT_TAG = FieldRef.of(Slot.class, "tag");
  static final FieldRef SLOT_BITS = FieldRef.of(Slot.class, "bits");
  static final MethodRef SLOT_CLEAR_REF = MethodRef.of(Slot.class, "clearRef");
  static final MethodRef SLOT_SET_RAW = MethodRef.of(Slot.class, "setRaw", byte.class,
      long.class, Object.class);

  static final FieldRef HELD_LEFT_TAG = FieldRef.of(TypedNodes.TypedBinary.class,
      "heldLeftTag");
  static final FieldRef HELD_LEFT = FieldRef.of(TypedNodes.TypedBinary.class, "heldLeft");
  static final FieldRef HELD_RIGHT_TAG = FieldRef.of(TypedNodes.TypedBinary.class,
      "heldRightTag");
  static final FieldRef HELD_RIGHT = FieldRef.of(TypedNodes.TypedBinary.class, "heldRight");
  static final FieldRef DELAY_LAST = FieldRef.of(TemporalNodes.DelayRead.class, "last");
  static final FieldRef DEFAULT_HELD = FieldRef.of(TemporalNodes.Default.class, "held");

  static final FieldRef CELL_ROOT = FieldRef.of(StreamCell.class, "root");
  static final FieldRef CELL_OWNER = FieldRef.of(StreamCell.class, "owner");
  static final MethodRef CELL_LAST_PRESENT = MethodRef.of(StreamCell.class, "lastPresent");
  static final MethodRef CELL_OVERWRITING = MethodRef.of(StreamCell.class, "overwriting",
      byte.class);
  static final MethodRef CELL_TAKE = MethodRef.of(StreamCell.class, "take", Slot.class);
  static final MethodRef CELL_HOLD_PRESENT = MethodRef.of(StreamCell.class, "holdPresent",
      byte.class, long.class);
  static final MethodRef CELL_COMMIT_ALL = MethodRef.of(StreamCell.class, "commitAll");
  static final MethodRef CELL_SET = MethodRef.of(StreamCell.class, "set", Slot.class);
  static final MethodRef CELL_COPY_TO = MethodRef.of(StreamCell.class, "copyTo", Row.class,
      int.class);

  static final FieldRef RING_SIZE = FieldRef.of(HistoryRing.class, "size");
  static final FieldRef RING_HEAD = FieldRef.of(HistoryRing.class, "head");
  static final FieldRef RING_TAGS = FieldRef.of(HistoryRing.class, "tags");
  static final FieldRef RING_BITS = FieldRef.of(HistoryRing.class, "bits");
  static final MethodRef RING_TAG_AGO = MethodRef.of(HistoryRing.class, "tagAgo", int.class);
  static final MethodRef RING_BITS_AGO = MethodRef.of(HistoryRing.class, "bitsAgo", int.class);
  static final MethodRef RING_PUSH = MethodRef.of(HistoryRing.class, "push", Slot.class);
  static final MethodRef RING_PUSH_SCALAR = MethodRef.of(HistoryRing.class, "pushScalar",
      byte.class, long.class);
  static final MethodRef RING_KEEP_NEWEST = MethodRef.of(HistoryRing.class, "keepNewest",
      int.class);
  static final MethodRef RING_FULL_OF = MethodRef.of(HistoryRing.class, "fullOf", int.class);

  static final MethodRef CHECK_MATCHES = MethodRef.of(TypeCheck.Compiled.class, "matches",
      Slot.class);

  static final FieldRef DENSE_BATCHES = FieldRef.of(Evaluator.class, "denseBatches");
  static final MethodRef READ_INPUT = MethodRef.of(Evaluator.class, "readInput",
      StreamCell.class, Row.class, int.class, TypeCheck.Compiled.class);
  static final MethodRef FAILED_IN = MethodRef.of(Evaluator.class, "failedIn", StreamCell.class);
  static final MethodRef FAILED_IN_BATCH = MethodRef.of(Evaluator.class, "failedInBatch",
      StreamCell.class, int.class);
  static final MethodRef CHECK_TYPE = MethodRef.of(Evaluator.class, "checkType",
      StreamCell.class);
  static final MethodRef CHECK_OUTPUTS = MethodRef.of(Evaluator.class, "checkOutputs");
  static final MethodRef ENSURE_EVALUATED = MethodRef.of(Evaluator.class, "ensureEvaluated",
      StreamCell.class);
  static final MethodRef ENTER = MethodRef.of(Evaluator.class, "enter", StreamCell.class);
  static final MethodRef LEAVE = MethodRef.of(Evaluator.class, "leave", StreamCell.class);

  static final MethodRef COLUMN_KINDS = MethodRef.of(TickColumns.class, "kinds", int.class);
  static final MethodRef COLUMN_PAYLOADS = MethodRef.of(TickColumns.class, "payloads",
      int.class);
  static final MethodRef AFTER_LAST_OTHER = MethodRef.of(FusedCompiler.class, "afterLastOther",
      byte[].class, int.class, int.class, int.class);
  static final MethodRef MAX = MethodRef.of(Math.class, "max", int.class, int.class);
  static final MethodRef FILL = MethodRef.of(Arrays.class, "fill", byte[].class, int.class,
      int.class, byte.class);
  static final MethodRef CLASS_DATA = MethodRef.of(ClassDefiner.ClassData.class, "of",
      Class.class);

  /** The kernel a typed operator names for one operand kind ({@code TypedBinary.kernel}). */
  static MethodRef kernel(TypedNodes.TypedBinary t, byte kind) {
    return MethodRef.of(Ops.class, t.kernel(kind), long.class, long.class);
  }

}
