package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.TickColumns;
import io.dataflow.core.Value;
import io.dataflow.io.internal.ColumnWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A batch's outputs written in columns ({@link ColumnWriter#feed}) are byte for byte what the
 * same writer writes fed the same ticks a row at a time, for every kind of value, names of every
 * length (so that each room check meets a full buffer), layouts changing between batches and
 * batches starting anywhere in their columns; and {@link ColumnWriter#written()} counts the rows
 * before a failing one (docs/decisions.md, "A batch's outputs go to a byte writer in columns").
 */
class Utf8ColumnWritersTest {
  @Test
  void columnsWriteWhatRowsWrite() throws IOException {
    long seed = Long.getLong("dataflow.seed", 20261203L);
    System.out.println("Utf8ColumnWritersTest seed " + seed);
    Random rnd = new Random(seed);
    String[] names = Utf8WritersTest.namesOfEveryLength();
    RowLayout[] layouts = {RowLayout.of("z"), RowLayout.of("a", "b_2", "ü", "x y", "q\""),
        RowLayout.of(names[7], names[39]), RowLayout.of(names[0], names[13], names[26])};
    for (boolean json : new boolean[] {false, true}) {
      ByteArrayOutputStream columnBytes = new ByteArrayOutputStream();
      ByteArrayOutputStream rowBytes = new ByteArrayOutputStream();
      Utf8OutputWriter byColumns = Utf8WritersTest.byteWriter(json, columnBytes);
      Utf8OutputWriter byRows = Utf8WritersTest.byteWriter(json, rowBytes);
      long tick = 0;
      for (int batch = 0; batch < 400; batch++) {
        RowLayout layout = layouts[rnd.nextInt(layouts.length)];
        int from = rnd.nextInt(4);
        int to = from + rnd.nextInt(300);
        TickColumns columns = new TickColumns(layout.width(), to + 2);
        for (int t = 0; t < to + 2; t++) {
          for (int s = 0; s < layout.width(); s++) {
            int k = rnd.nextInt(8);
            if (k < 4) {
              columns.setInt(s, t, k == 0 ? rnd.nextLong() : rnd.nextInt(2_000_000) - 1000);
            } else if (k == 4) {
              columns.setBool(s, t, rnd.nextBoolean());
            } else if (k == 5 && rnd.nextInt(4) == 0) {
              columns.set(s, t, Utf8WritersTest.value(rnd, 0));
            } else if (k == 6) {
              columns.set(s, t, Value.UNIT);
            } // else NoVal
          }
        }
        columns.setSize(to + 2);
        long first = rnd.nextInt(20) == 0 ? Long.MAX_VALUE - 400 : tick;
        byColumns.feed(first, layout, columns, from, to);
        assertThat(byColumns.written()).isEqualTo(to - from);
        Row row = layout.newRow();
        for (int t = from; t < to; t++) {
          columns.copyTo(t, row);
          byRows.feed(first + (t - from), layout, row);
        }
        tick += to - from;
        if (rnd.nextInt(30) == 0) {
          byColumns.flush();
          byRows.flush();
        }
      }
      byColumns.close();
      byRows.close();
      assertThat(columnBytes.size()).isGreaterThan(3 << 16); // many drains of the buffer
      assertThat(columnBytes.toByteArray()).as("seed %d, json %s", seed, json)
          .isEqualTo(rowBytes.toByteArray());
    }
  }

  @Test
  void writtenCountsTheRowsBeforeAFailure() throws IOException {
    for (boolean json : new boolean[] {false, true}) {
      Failing stream = new Failing();
      Utf8OutputWriter w = Utf8WritersTest.byteWriter(json, stream);
      RowLayout layout = RowLayout.of("z");
      TickColumns columns = new TickColumns(1, 10_000);
      for (int t = 0; t < 10_000; t++) {
        columns.setInt(0, t, t);
      }
      columns.setSize(10_000);
      // The first drain of the 64 KiB buffer fails, some thousand rows into the batch.
      assertThatThrownBy(() -> w.feed(0, layout, columns, 5, 10_000))
          .isInstanceOf(IOException.class).hasMessage("injected");
      int written = w.written();
      assertThat(written).isBetween(1000, 9000);
      // The rows counted are those whose bytes were in the buffer when it was to be written.
      String text = new String(stream.attempted, java.nio.charset.StandardCharsets.UTF_8);
      assertThat(text.split("\n")).hasSize(written);
      assertThat(text).endsWith(json ? "{\"tick\":" + (written - 1) + ",\"outputs\":{\"z\":"
          + (written + 4) + "}}\n" : "z[" + (written - 1) + "] = Int(" + (written + 4) + ")\n");
    }
  }

  /** Fails every write, keeping the bytes of the first one. */
  private static final class Failing extends OutputStream {
    byte[] attempted;

    @Override
    public void write(int b) throws IOException {
      throw new IOException("injected");
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (attempted == null) {
        attempted = java.util.Arrays.copyOfRange(b, off, off + len);
      }
      throw new IOException("injected");
    }
  }
}
