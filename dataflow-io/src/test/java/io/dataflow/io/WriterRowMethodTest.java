package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The byte writers' row method ({@code row}) is longer than C2 inlines into a hot caller
 * (325 bytes of bytecode, {@code -XX:FreqInlineSize}), so that it is compiled once, by itself,
 * and not again inside the compiles of the loops that call it (docs/decisions.md, "A writer's
 * row is one method, too long to inline"). Shortening it below that would still be correct and
 * only cost compile time, which no other test sees: this one does.
 */
class WriterRowMethodTest {
  private static final int FREQ_INLINE_SIZE = 325;

  @Test
  void theRowMethodsAreTooLongToInline() throws IOException {
    // a row, read from a batch's columns (docs/decisions.md, "A batch's outputs go to a byte
    // writer in columns"); a single Row is copied into one tick and written by the same method
    assertThat(codeLengths(Utf8JsonLinesWriter.class).get("row"))
        .isGreaterThan(FREQ_INLINE_SIZE);
    assertThat(codeLengths(Utf8TextWriter.class).get("row"))
        .isGreaterThan(FREQ_INLINE_SIZE);
  }

  /** The bytecode length of each method of a class, by name (the class file's Code). */
  private static Map<String, Integer> codeLengths(Class<?> c) throws IOException {
    Map<String, Integer> lengths = new HashMap<>();
    try (InputStream s = c.getResourceAsStream(c.getSimpleName() + ".class");
        DataInputStream in = new DataInputStream(s)) {
      in.readInt(); // magic
      in.readInt(); // versions
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
          case 5, 6 -> {
            in.skipBytes(8);
            i++; // a long or a double takes two entries
          }
          case 7, 8, 16, 19, 20 -> in.skipBytes(2);
          case 15 -> in.skipBytes(3);
          default -> throw new IOException("constant pool tag " + tag);
        }
      }
      in.skipBytes(6); // access, this, super
      in.skipBytes(2 * in.readUnsignedShort()); // interfaces
      int fields = in.readUnsignedShort();
      for (int f = 0; f < fields; f++) {
        in.skipBytes(6);
        skipAttributes(in);
      }
      int methods = in.readUnsignedShort();
      for (int m = 0; m < methods; m++) {
        in.skipBytes(2);
        String name = utf8[in.readUnsignedShort()];
        in.skipBytes(2);
        int attributes = in.readUnsignedShort();
        for (int a = 0; a < attributes; a++) {
          String attribute = utf8[in.readUnsignedShort()];
          int length = in.readInt();
          if (attribute.equals("Code")) {
            in.skipBytes(4); // max stack, max locals
            lengths.merge(name, in.readInt(), Math::max);
            in.skipBytes(length - 8);
          } else {
            in.skipBytes(length);
          }
        }
      }
    }
    return lengths;
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.skipBytes(2);
      in.skipBytes(in.readInt());
    }
  }
}
