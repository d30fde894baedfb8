package io.dataflow.monitor.codegen;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The smallest class-file writer the fused evaluator needs: a constant pool, static fields,
 * methods with code and exception tables. It writes class-file version 49, which the JVM
 * verifies by type inference, so no stack-map frames are needed.
 *
 * <p>Thread-safety: not thread-safe; one writer per generated class.
 */
final class ClassFile {
  static final int ACC_PUBLIC = 0x0001;
  static final int ACC_STATIC = 0x0008;
  static final int ACC_FINAL = 0x0010;
  static final int ACC_SUPER = 0x0020;
  /** The largest code of one method the JVM accepts (JVMS 4.7.3: code_length < 65536). */
  static final int MAX_METHOD_CODE = 65_535;

  /**
   * The code does not fit the class-file format (a method or a jump too long): the program is
   * too large for generated code, not a bug of the generator.
   */
  static final class TooLarge extends RuntimeException {
    TooLarge(String message) {
      super(message, null, false, false); // the message says it all: no stack trace
    }
  }

  private final List<byte[]> pool = new ArrayList<>();
  private final Map<String, Integer> poolIndex = new HashMap<>();
  private final int thisClass;
  private final int superClass;
  private final int[] interfaces;
  private final ByteArrayOutputStream fields = new ByteArrayOutputStream();
  private final ByteArrayOutputStream methods = new ByteArrayOutputStream();
  private int fieldCount;
  private int methodCount;

  ClassFile(String name, String superName, String... interfaceNames) {
    thisClass = classRef(name);
    superClass = classRef(superName);
    interfaces = new int[interfaceNames.length];
    for (int i = 0; i < interfaceNames.length; i++) {
      interfaces[i] = classRef(interfaceNames[i]);
    }
  }

  // ---- constant pool

  private int add(String key, Writer entry) {
    Integer i = poolIndex.get(key);
    if (i != null) {
      return i;
    }
    pool.add(bytes(entry));
    poolIndex.put(key, pool.size());
    return pool.size();
  }

  private static byte[] bytes(Writer w) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(16);
    try {
      w.write(new DataOutputStream(b));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }

  private interface Writer {
    void write(DataOutputStream d) throws IOException;
  }

  int utf8(String s) {
    return add("U" + s, d -> {
      d.writeByte(1);
      d.writeUTF(s);
    });
  }

  int classRef(String internalName) {
    int u = utf8(internalName);
    return add("C" + internalName, d -> {
      d.writeByte(7);
      d.writeShort(u);
    });
  }

  int string(String s) {
    int u = utf8(s);
    return add("S" + s, d -> {
      d.writeByte(8);
      d.writeShort(u);
    });
  }

  int integer(int v) {
    return add("I" + v, d -> {
      d.writeByte(3);
      d.writeInt(v);
    });
  }

  private int nameAndType(String name, String desc) {
    int n = utf8(name);
    int t = utf8(desc);
    return add("N" + name + ":" + desc, d -> {
      d.writeByte(12);
      d.writeShort(n);
      d.writeShort(t);
    });
  }

  int fieldRef(String owner, String name, String desc) {
    return memberRef(9, owner, name, desc);
  }

  int methodRef(String owner, String name, String desc) {
    return memberRef(10, owner, name, desc);
  }

  int interfaceMethodRef(String owner, String name, String desc) {
    return memberRef(11, owner, name, desc);
  }

  private int memberRef(int tag, String owner, String name, String desc) {
    String key = tag + owner + "." + name + ":" + desc;
    Integer known = poolIndex.get(key);
    if (known != null) {
      return known;
    }
    int c = classRef(owner);
    int nt = nameAndType(name, desc);
    return add(key, d -> {
      d.writeByte(tag);
      d.writeShort(c);
      d.writeShort(nt);
    });
  }

  private final Map<Integer, Integer> constantFields = new HashMap<>();

  /** The field reference of generated constant {@code i}, made once. */
  int constantField(int i, java.util.function.IntSupplier make) {
    Integer ref = constantFields.get(i);
    if (ref == null) {
      ref = make.getAsInt();
      constantFields.put(i, ref);
    }
    return ref;
  }

  // ---- members

  void field(int access, String name, String desc) {
    int n = utf8(name);
    int t = utf8(desc);
    DataOutputStream d = new DataOutputStream(fields);
    try {
      d.writeShort(access);
      d.writeShort(n);
      d.writeShort(t);
      d.writeShort(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    fieldCount++;
  }

  /**
   * Adds a method whose body is {@code code}.
   *
   * @throws TooLarge when the body exceeds the JVM's limit on a method's code
   */
  void method(int access, String name, String desc, Code code) {
    if (code.pc() > MAX_METHOD_CODE) {
      // The JVM would refuse the class anyway; the handler table's 16-bit offsets would not
      // even say where: name the method instead.
      throw new TooLarge("method " + name + " has " + code.pc() + " bytes of code, the JVM's"
          + " limit is " + MAX_METHOD_CODE);
    }
    int n = utf8(name);
    int t = utf8(desc);
    int codeName = utf8("Code");
    byte[] body = code.bytes();
    DataOutputStream d = new DataOutputStream(methods);
    try {
      d.writeShort(access);
      d.writeShort(n);
      d.writeShort(t);
      d.writeShort(1);
      d.writeShort(codeName);
      d.writeInt(12 + body.length + 8 * code.handlers.size());
      d.writeShort(code.maxStack);
      d.writeShort(code.maxLocals);
      d.writeInt(body.length);
      d.write(body);
      d.writeShort(code.handlers.size());
      for (int[] h : code.handlers) {
        d.writeShort(h[0]);
        d.writeShort(h[1]);
        d.writeShort(h[2]);
        d.writeShort(h[3]);
      }
      d.writeShort(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    methodCount++;
  }

  byte[] toBytes() {
    if (pool.size() >= 0xffff) { // constant_pool_count is 16 bits and counts from 1
      throw new TooLarge("the constant pool has " + pool.size() + " entries, the limit is "
          + (0xffff - 1));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(out);
    try {
      d.writeInt(0xCAFEBABE);
      d.writeShort(0);
      d.writeShort(49);
      d.writeShort(pool.size() + 1);
      for (byte[] e : pool) {
        d.write(e);
      }
      d.writeShort(ACC_PUBLIC | ACC_FINAL | ACC_SUPER);
      d.writeShort(thisClass);
      d.writeShort(superClass);
      d.writeShort(interfaces.length);
      for (int i : interfaces) {
        d.writeShort(i);
      }
      d.writeShort(fieldCount);
      d.write(fields.toByteArray());
      d.writeShort(methodCount);
      d.write(methods.toByteArray());
      d.writeShort(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The bytecode of one method. */
  static final class Code {
    static final int ACONST_NULL = 0x01;
    static final int LCONST_0 = 0x09;
    static final int LCONST_1 = 0x0a;
    static final int BIPUSH = 0x10;
    static final int ILOAD = 0x15;
    static final int LLOAD = 0x16;
    static final int ISTORE = 0x36;
    static final int LSTORE = 0x37;
    static final int LALOAD = 0x2f;
    static final int BALOAD = 0x33;
    static final int IADD = 0x60;
    static final int ISUB = 0x64;
    static final int ARRAYLENGTH = 0xbe;
    static final int IF_ICMPLT = 0xa1;
    static final int IF_ICMPGT = 0xa3;
    static final int LAND = 0x7f;
    static final int LOR = 0x81;
    static final int LXOR = 0x83;
    static final int LCMP = 0x94;
    static final int LADD = 0x61;
    static final int IXOR = 0x82;
    static final int DCMPL = 0x97;
    static final int DCMPG = 0x98;
    static final int IFEQ = 0x99;
    static final int IFNE = 0x9a;
    static final int IFLT = 0x9b;
    static final int IFGE = 0x9c;
    static final int IFGT = 0x9d;
    static final int IFLE = 0x9e;
    static final int IF_ICMPNE = 0xa0;
    static final int IF_ICMPEQ = 0x9f;
    static final int IFNULL = 0xc6;
    static final int DUP = 0x59;
    static final int ALOAD = 0x19;
    static final int ASTORE = 0x3a;
    static final int BASTORE = 0x54;
    static final int LASTORE = 0x50;
    static final int IRETURN = 0xac;
    static final int IINC = 0x84;
    static final int IF_ICMPGE = 0xa2;
    static final int IF_ICMPLE = 0xa4;
    static final int ILOAD_3 = 0x1d;
    static final int GOTO = 0xa7;
    static final int GETFIELD = 0xb4;
    static final int PUTFIELD = 0xb5;
    static final int ALOAD_0 = 0x2a;
    static final int ALOAD_1 = 0x2b;
    static final int ALOAD_2 = 0x2c;
    static final int INVOKEINTERFACE = 0xb9;
    static final int ASTORE_0 = 0x4b;
    static final int AALOAD = 0x32;
    static final int ATHROW = 0xbf;
    static final int RETURN = 0xb1;
    static final int SIPUSH = 0x11;
    static final int LDC_W = 0x13;
    static final int GETSTATIC = 0xb2;
    static final int PUTSTATIC = 0xb3;
    static final int INVOKEVIRTUAL = 0xb6;
    static final int INVOKESPECIAL = 0xb7;
    static final int INVOKESTATIC = 0xb8;
    static final int CHECKCAST = 0xc0;

    private final ByteArrayOutputStream code = new ByteArrayOutputStream();
    final List<int[]> handlers = new ArrayList<>();
    int maxStack;
    int maxLocals;

    void op(int opcode) {
      code.write(opcode);
    }

    void op(int opcode, int u2) {
      code.write(opcode);
      code.write(u2 >> 8);
      code.write(u2);
    }

    void intConstant(ClassFile cf, int v) {
      if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
        op(SIPUSH, v);
      } else {
        op(LDC_W, cf.integer(v));
      }
    }

    /** A jump target; jumps to it before it is placed are patched when it is. */
    static final class Label {
      private int position = -1;
      private final List<Integer> patches = new ArrayList<>();
    }

    /** A two-byte-offset jump ({@code goto}, {@code ifeq}, ...) to {@code target}. */
    void jump(int opcode, Label target) {
      int at = pc();
      code.write(opcode);
      if (target.position >= 0) {
        int offset = checkedOffset(target.position - at);
        code.write(offset >> 8);
        code.write(offset);
      } else {
        target.patches.add(at);
        code.write(0);
        code.write(0);
      }
    }

    /** A jump offset, which must fit the instruction's signed 16 bits (else it would wrap). */
    private static int checkedOffset(int offset) {
      if (offset < Short.MIN_VALUE || offset > Short.MAX_VALUE) {
        throw new TooLarge("a jump of " + offset + " bytes does not fit a 16-bit offset");
      }
      return offset;
    }

    /** Places {@code label} here and patches the jumps already made to it. */
    void place(Label label) {
      label.position = pc();
      if (!label.patches.isEmpty()) {
        byte[] bytes = code.toByteArray();
        for (int at : label.patches) {
          int offset = checkedOffset(label.position - at);
          bytes[at + 1] = (byte) (offset >> 8);
          bytes[at + 2] = (byte) offset;
        }
        code.reset();
        code.write(bytes, 0, bytes.length);
        label.patches.clear();
      }
    }

    /** Loads or stores a local variable ({@code wide} beyond index 255). */
    void local(int opcode, int index) {
      if (index > 255) {
        code.write(0xc4); // wide
        code.write(opcode);
        code.write(index >> 8);
        code.write(index);
        return;
      }
      code.write(opcode);
      code.write(index);
    }

    /** Pushes a small int. */
    void smallInt(int v) {
      code.write(BIPUSH);
      code.write(v);
    }

    /** {@code invokeinterface} of a method taking no arguments. */
    void invokeInterfaceNoArgs(int methodRef) {
      op(INVOKEINTERFACE, methodRef);
      code.write(1);
      code.write(0);
    }

    int pc() {
      return code.size();
    }

    /** A handler for any throwable in {@code [start, end)} at {@code handler}. */
    void catchAll(int start, int end, int handler) {
      handlers.add(new int[] {start, end, handler, 0});
    }

    byte[] bytes() {
      return code.toByteArray();
    }
  }
}
