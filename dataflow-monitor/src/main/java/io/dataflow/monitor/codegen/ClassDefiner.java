package io.dataflow.monitor.codegen;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes one generated class with ASM and defines it: the class's constants as
 * {@code static final} fields, its methods, then a class loader of its own.
 *
 * <h2>Implementation note</h2>
 * A generated class is an ordinary class in a class loader of its own (package
 * {@code io.dataflow.monitor.generated}), not a hidden class: the JVM leaves hidden classes'
 * frames out of stack traces, and a failure in generated code must show the specification's
 * file and the equation's line. The loader holds the constants, which the class's
 * {@code <clinit>} copies into its fields ({@link ClassData}); the class and its loader are
 * unloaded together once the monitor is gone. The packages of this module that the class
 * names are exported to the loader's unnamed module only.
 *
 * <p>Diagnostics (system properties, read per class): {@code dataflow.monitor.dump=DIR} writes
 * {@code <Class>.class} and, with asm-util on the class path, its {@code Textifier} listing
 * {@code <Class>.txt}; {@code dataflow.monitor.verify=true} runs {@code CheckClassAdapter} on
 * every class before it is defined (the test suite sets it) and fails on what it finds.
 *
 * <p>Thread-safety: one definer per class; {@link #define} may run on any thread.
 */
final class ClassDefiner implements Opcodes {
  static final String PACKAGE = "io/dataflow/monitor/generated/";
  static final String DUMP_PROPERTY = "dataflow.monitor.dump";
  static final String VERIFY_PROPERTY = "dataflow.monitor.verify";
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(ClassDefiner.class);
  }
  private static final AtomicLong SERIAL = new AtomicLong();
  private static final AtomicBoolean NO_LISTING_LOGGED = new AtomicBoolean();

  final String name;
  private final ClassWriter writer;
  private final Constants constants;

  /**
   * Starts a class {@code <kind>_<source>_<n>} implementing {@code type} whose methods come
   * from {@code sourceFile} (the specification's name: stack traces show it).
   */
  ClassDefiner(String kind, String sourceFile, Class<?> type, Constants constants) {
    this.name = PACKAGE + kind + "_" + identifier(sourceFile) + "_" + SERIAL.incrementAndGet();
    this.constants = constants;
    constants.owner(name);
    // Class-file version 49: no stack-map frames to compute (the JVM's verifier infers the
    // types itself); ASM counts the maximum stack (docs/decisions.md, class-file version 49).
    writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    writer.visit(V1_5, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, name, null, "java/lang/Object",
        new String[] {Type.getInternalName(type)});
    writer.visitSource(sourceFile, null);
    for (int i = 0; i < constants.size(); i++) {
      writer.visitField(ACC_PRIVATE | ACC_STATIC | ACC_FINAL, Constants.fieldName(i),
          Constants.descriptor(constants.get(i)), null, null).visitEnd();
    }
    staticInit();
    constructor();
  }

  /** A method of the class; {@link Code#end()} finishes it. */
  Code method(int access, String methodName, String descriptor) {
    return new Code(writer.visitMethod(access, methodName, descriptor, null, null), constants);
  }

  /** Copies the loader's constants into the static final fields. */
  private void staticInit() {
    Code c = method(ACC_STATIC, "<clinit>", "()V");
    c.mv.visitLdcInsn(Type.getObjectType(name));
    c.invoke(Members.CLASS_DATA);
    c.astore(0);
    for (int i = 0; i < constants.size(); i++) {
      c.aload(0);
      c.intConstant(i);
      c.op(AALOAD);
      c.mv.visitTypeInsn(CHECKCAST, Type.getInternalName(constants.get(i).getClass()));
      c.mv.visitFieldInsn(PUTSTATIC, name, Constants.fieldName(i),
          Constants.descriptor(constants.get(i)));
    }
    c.op(RETURN);
    c.end();
  }

  private void constructor() {
    Code c = method(ACC_PUBLIC, "<init>", "()V");
    c.aload(0);
    c.mv.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    c.op(RETURN);
    c.end();
  }

  /**
   * The constants of a generated class, held by its loader: what its {@code <clinit>} reads
   * (public: the generated class is in another package; this one is exported only to it).
   */
  public static final class ClassData {
    private ClassData() {}

    /** Generated {@code <clinit>}: the constants of {@code generated}. */
    public static Object[] of(Class<?> generated) {
      return ((Loader) generated.getClassLoader()).constants;
    }
  }

  /**
   * Finishes the class, defines it in a new loader and returns its instance.
   *
   * <h2>Implementation note</h2>
   * Only what generation can legitimately hit becomes a {@link GenerationRefused}: code too
   * large for the class-file format (ASM's {@code MethodTooLargeException},
   * {@code ClassTooLargeException}), and the JVM's refusal of the class (VerifyError,
   * ClassFormatError, other linkage errors while it is defined and linked). Anything else, and
   * an {@link ExceptionInInitializerError} (the generated {@code <clinit>} only copies the
   * constants: failing there is the generator's bug), propagates: caught broadly, a regression
   * of the generator would only show as a slowdown. So does a class that fails
   * {@code CheckClassAdapter} under {@code dataflow.monitor.verify}.
   */
  <T> T define(Class<T> type) throws GenerationRefused {
    byte[] bytes;
    try {
      writer.visitEnd();
      bytes = writer.toByteArray();
    } catch (MethodTooLargeException e) {
      throw new GenerationRefused("method " + e.getMethodName() + " has " + e.getCodeSize()
          + " bytes of code, the JVM's limit is 65535", e);
    } catch (ClassTooLargeException e) {
      throw new GenerationRefused("the generated class's constant pool has "
          + e.getConstantPoolCount() + " entries, the limit is 65535", e);
    }
    String dump = System.getProperty(DUMP_PROPERTY);
    if (dump != null && !dump.isEmpty()) {
      dump(Path.of(dump), bytes);
    }
    if (Boolean.getBoolean(VERIFY_PROPERTY)) {
      verify(bytes);
    }
    Loader loader = new Loader(ClassDefiner.class.getClassLoader(), constants.toArray());
    Module self = ClassDefiner.class.getModule();
    if (self.isNamed()) {
      self.addExports("io.dataflow.monitor.eval", loader.getUnnamedModule());
      self.addExports("io.dataflow.monitor.codegen", loader.getUnnamedModule());
    }
    Class<?> defined;
    try {
      defined = loader.define(name.replace('/', '.'), bytes);
      Class.forName(defined.getName(), true, loader); // links (verifies) and initializes
    } catch (ExceptionInInitializerError e) {
      throw e;
    } catch (LinkageError e) {
      // VerifyError and ClassFormatError (UnsupportedClassVersionError) are LinkageErrors.
      throw new GenerationRefused("the JVM refused the generated class: " + e, e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("the generated class vanished from its loader", e);
    }
    try {
      // Reflection rather than a method handle: invoke() would spin an adapter per class.
      return type.cast(defined.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the generated class has no usable constructor", e);
    }
  }

  /** The class's simple name, for file names: {@code Tick_counter_dsrv_3}. */
  String simpleName() {
    return name.substring(name.lastIndexOf('/') + 1);
  }

  private void dump(Path dir, byte[] bytes) {
    try {
      Files.createDirectories(dir);
      Files.write(dir.resolve(simpleName() + ".class"), bytes);
    } catch (IOException e) {
      log().warn("could not dump the generated class {} into {}: {}", simpleName(), dir, e);
      return;
    }
    String listing;
    try {
      listing = Util.listing(bytes);
    } catch (LinkageError e) { // asm-util is optional: no listing without it
      if (NO_LISTING_LOGGED.compareAndSet(false, true)) {
        log().warn("{} writes .class files only: org.ow2.asm:asm-util is not on the class path"
            + " (its Textifier writes the .txt listings)", DUMP_PROPERTY);
      }
      return;
    }
    try {
      Files.writeString(dir.resolve(simpleName() + ".txt"), listing);
    } catch (IOException e) {
      log().warn("could not dump the listing of {} into {}: {}", simpleName(), dir, e);
    }
  }

  private static void verify(byte[] bytes) {
    String problems = Util.check(bytes, ClassDefiner.class.getClassLoader());
    if (!problems.isEmpty()) {
      throw new IllegalStateException("the generated class fails CheckClassAdapter:\n"
          + problems);
    }
  }

  /** A valid Java identifier part made of a source name: {@code counter.dsrv -> counter_dsrv}. */
  private static String identifier(String source) {
    StringBuilder b = new StringBuilder(Math.min(source.length(), 40));
    for (int i = 0; i < source.length() && b.length() < 40; i++) {
      char ch = source.charAt(i);
      b.append(ch < 128 && Character.isLetterOrDigit(ch) ? ch : '_');
    }
    return b.toString();
  }

  /** One generated class's loader: its parent is this module's, it holds the constants. */
  private static final class Loader extends ClassLoader {
    final Object[] constants;

    Loader(ClassLoader parent, Object[] constants) {
      super("dataflow-generated", parent);
      this.constants = constants;
    }

    Class<?> define(String className, byte[] bytes) {
      return defineClass(className, bytes, 0, bytes.length);
    }
  }

  /**
   * What needs asm-util (an optional dependency), apart so that this class loads without it:
   * a {@code NoClassDefFoundError} out of these methods means asm-util is missing.
   */
  private static final class Util {
    static String listing(byte[] bytes) {
      StringWriter out = new StringWriter();
      new ClassReader(bytes).accept(new org.objectweb.asm.util.TraceClassVisitor(null,
          new org.objectweb.asm.util.Textifier(), new PrintWriter(out)), 0);
      return out.toString();
    }

    static String check(byte[] bytes, ClassLoader loader) {
      StringWriter out = new StringWriter();
      org.objectweb.asm.util.CheckClassAdapter.verify(new ClassReader(bytes), loader, false,
          new PrintWriter(out));
      return out.toString();
    }
  }

}
