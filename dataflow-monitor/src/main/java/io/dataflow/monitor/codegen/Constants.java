package io.dataflow.monitor.codegen;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The objects a generated class names (the monitor, its cells, nodes, rings and checks), each
 * once: they become {@code static final} fields of the class, typed with their exact classes,
 * so the JIT sees constant receivers. The first is the monitor (or a body's root).
 *
 * <p>Thread-safety: not thread-safe; one per generated class.
 */
final class Constants {
  /** Beyond this many the class would not fit the class-file format (fields, constant pool). */
  static final int MAX = 20_000;

  private final List<Object> list = new ArrayList<>();
  private final Map<Object, Integer> index = new IdentityHashMap<>();
  private String owner;

  /** Adds {@code o} unless it is there already. */
  void add(Object o) {
    if (!index.containsKey(o)) {
      index.put(o, list.size());
      list.add(o);
    }
  }

  Object first() {
    return list.get(0);
  }

  int size() {
    return list.size();
  }

  Object get(int i) {
    return list.get(i);
  }

  Object[] toArray() {
    return list.toArray();
  }

  /** Refuses a program whose constants would not fit one class. */
  void requireFew() throws GenerationRefused {
    if (list.size() > MAX) {
      throw new GenerationRefused("the program needs " + list.size()
          + " constants, a generated class holds at most " + MAX, null);
    }
  }

  /** The class whose fields these are (set when its writer starts). */
  void owner(String internalName) {
    this.owner = internalName;
  }

  String owner() {
    return owner;
  }

  static String fieldName(int i) {
    return "k" + i;
  }

  static String descriptor(Object o) {
    return Type.getDescriptor(o.getClass());
  }

  /** {@code GETSTATIC} of the field holding {@code o}. */
  void get(MethodVisitor mv, Object o) {
    Integer i = index.get(o);
    if (i == null) {
      throw new IllegalStateException("not a constant of the generated class: " + o);
    }
    mv.visitFieldInsn(Opcodes.GETSTATIC, owner, fieldName(i), descriptor(o));
  }
}
