package io.dataflow.monitor.codegen;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Copies the bytecode of a class's static methods into generated code in place of their calls,
 * and of the calls they make to the same class, recursively: the generated method then holds
 * no call that takes what the copied methods take (for the keyed kernel's hot tick, its
 * working copy, which the JIT can then replace by registers whatever it decides about
 * inlining; see {@code KernelEmitter}). The semantics stay written once, in the class copied
 * from; only its bytecode is repeated.
 *
 * <p>A copied method's arguments are stored from the stack into locals of their own, its
 * locals are moved past the generated method's, and each return becomes a jump past the copy
 * (the return value stays on the stack, as a call would leave it). Frames are left out (the
 * generated classes have none, docs/decisions.md, class-file version 49), and so are line
 * numbers, which would name lines of the class copied from. A
 * method with an exception handler or an {@code invokedynamic} cannot be copied that way, nor
 * one that calls itself: {@link #inline} refuses it. What the copies name must be public: the
 * generated class is in another package and loader.
 *
 * <p>Thread-safety: immutable after construction.
 */
final class Inliner implements Opcodes {
  private final String owner;
  private final byte[] bytes;
  /** Per method (name and descriptor): its locals' size. */
  private final Map<String, Integer> maxLocals = new HashMap<>();
  /** Methods that cannot be copied (an exception handler or an invokedynamic). */
  private final Set<String> refused = new HashSet<>();
  /** Per method (name and descriptor): the method of the same descriptor copied in its place. */
  private final Map<String, String> substitutes;

  /**
   * Reads {@code c}'s class file (its own, from its class loader); a call of a method named in
   * {@code substitutes} (name and descriptor) is replaced by the method of the same descriptor
   * it maps to (one the caller knows to do the same for every argument it passes).
   */
  Inliner(Class<?> c, Map<String, String> substitutes) {
    this.owner = Type.getInternalName(c);
    this.substitutes = Map.copyOf(substitutes);
    String file = owner.substring(owner.lastIndexOf('/') + 1) + ".class";
    try (InputStream in = c.getResourceAsStream(file)) {
      if (in == null) {
        throw new IllegalStateException("no class file " + file + " beside " + c.getName());
      }
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    new ClassReader(bytes).accept(new ClassVisitor(ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        String key = name + descriptor;
        return new MethodVisitor(ASM9) {
          @Override
          public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
            refused.add(key);
          }

          @Override
          public void visitInvokeDynamicInsn(String n, String d, Handle bsm, Object... args) {
            refused.add(key);
          }

          @Override
          public void visitMaxs(int maxStack, int locals) {
            maxLocals.put(key, locals);
          }
        };
      }
    }, ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG);
  }

  /** The internal name of the class whose methods are copied. */
  String owner() {
    return owner;
  }

  /**
   * Emits into {@code mv} the body of the static method {@code name descriptor} of the class,
   * its arguments on the stack (as for its call), with its locals from {@code free} on (every
   * local from there on may be overwritten); leaves what the call would leave.
   *
   * @throws IllegalStateException for a method that is not there or cannot be copied, copies
   *     nested deeper than {@link #DEEPEST}, or an interface's static method named (then a
   *     method of the class's own has changed: the generator's bug, not the user's)
   */
  void inline(MethodVisitor mv, String called, String descriptor, int free) {
    inline(mv, called, descriptor, free, 0);
  }

  /** The deepest chain of copies in copies (a method calling itself would never end). */
  static final int DEEPEST = 16;

  private void inline(MethodVisitor mv, String called, String descriptor, int free, int depth) {
    String name = substitutes.getOrDefault(called + descriptor, called);
    String key = name + descriptor;
    Integer locals = maxLocals.get(key);
    if (locals == null || refused.contains(key)) {
      throw new IllegalStateException(owner + "." + key + (locals == null
          ? " is not there" : " has an exception handler or an invokedynamic: not copied"));
    }
    if (depth > DEEPEST) {
      throw new IllegalStateException(owner + "." + key + ": copies nested deeper than "
          + DEEPEST + " (a method that calls itself is not copied)");
    }
    Type[] args = Type.getArgumentTypes(descriptor);
    int slot = free;
    for (Type t : args) {
      slot += t.getSize();
    }
    for (int i = args.length - 1; i >= 0; i--) {
      slot -= args[i].getSize();
      mv.visitVarInsn(args[i].getOpcode(ISTORE), slot);
    }
    Label end = new Label();
    int nested = free + locals;
    new ClassReader(bytes).accept(new ClassVisitor(ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String n, String d, String signature,
          String[] exceptions) {
        return n.equals(name) && d.equals(descriptor)
            ? new Copy(mv, free, nested, end, depth) : null;
      }
    }, ClassReader.SKIP_FRAMES | ClassReader.SKIP_DEBUG);
    mv.visitLabel(end);
  }

  /** One method's instructions into the target, moved as {@link #inline} says. */
  private final class Copy extends MethodVisitor {
    private final int base;
    private final int nested;
    private final Label end;
    private final int depth;

    Copy(MethodVisitor target, int base, int nested, Label end, int depth) {
      super(ASM9, target);
      this.base = base;
      this.nested = nested;
      this.end = end;
      this.depth = depth;
    }

    @Override
    public void visitCode() {}

    @Override
    public void visitInsn(int opcode) {
      if (opcode >= IRETURN && opcode <= RETURN) {
        super.visitJumpInsn(GOTO, end);
      } else {
        super.visitInsn(opcode);
      }
    }

    @Override
    public void visitVarInsn(int opcode, int var) {
      super.visitVarInsn(opcode, base + var);
    }

    @Override
    public void visitIincInsn(int var, int increment) {
      super.visitIincInsn(base + var, increment);
    }

    @Override
    public void visitMethodInsn(int opcode, String o, String n, String d, boolean itf) {
      if (opcode == INVOKESTATIC && o.equals(owner)) {
        inline(mv, n, d, nested, depth + 1);
      } else if (itf && opcode == INVOKESTATIC) {
        // a version 49 class cannot call an interface's static method
        throw new IllegalStateException("a copy of " + owner + " calls " + o + "." + n
            + ", an interface's static method: not copied");
      } else {
        super.visitMethodInsn(opcode, o, n, d, itf);
      }
    }

    @Override
    public org.objectweb.asm.AnnotationVisitor visitInsnAnnotation(int typeRef,
        org.objectweb.asm.TypePath typePath, String d, boolean visible) {
      return null;
    }

    @Override
    public org.objectweb.asm.AnnotationVisitor visitTryCatchAnnotation(int typeRef,
        org.objectweb.asm.TypePath typePath, String d, boolean visible) {
      return null;
    }

    @Override
    public org.objectweb.asm.AnnotationVisitor visitLocalVariableAnnotation(int typeRef,
        org.objectweb.asm.TypePath typePath, Label[] start, Label[] end, int[] index, String d,
        boolean visible) {
      return null;
    }

    // Nothing of the method itself but its instructions: no parameters, annotations or
    // attributes onto the generated method.
    @Override
    public void visitParameter(String name, int access) {}

    @Override
    public org.objectweb.asm.AnnotationVisitor visitAnnotationDefault() {
      return null;
    }

    @Override
    public org.objectweb.asm.AnnotationVisitor visitAnnotation(String d, boolean visible) {
      return null;
    }

    @Override
    public org.objectweb.asm.AnnotationVisitor visitTypeAnnotation(int typeRef,
        org.objectweb.asm.TypePath typePath, String d, boolean visible) {
      return null;
    }

    @Override
    public void visitAnnotableParameterCount(int count, boolean visible) {}

    @Override
    public org.objectweb.asm.AnnotationVisitor visitParameterAnnotation(int parameter,
        String d, boolean visible) {
      return null;
    }

    @Override
    public void visitAttribute(org.objectweb.asm.Attribute attribute) {}

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {}

    @Override
    public void visitEnd() {}
  }
}
