package io.dataflow.io;

import io.dataflow.core.SourceLocation;
import io.dataflow.core.Value;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import io.dataflow.io.internal.Json5;

/**
 * A streaming reader of trace files (docs/io.md#trace-files).
 *
 * <pre>
 * 0: x = 1
 *    y = 2
 * 1: x = 3
 * // comment
 * 3: y = "text"
 * &#64;reconfigure {specification: "in x\nout z\nz = x"}
 * </pre>
 *
 * <p>Ticks are numbered from 0 and strictly increasing; a gap yields empty ticks (every input
 * NoVal), so the n-th tick returned is tick n. Within a tick the last assignment of a name
 * wins. A {@code @reconfigure} line yields a {@link Reconfigure} item between ticks; its JSON5
 * is checked for syntax here. The reader streams: a bad line is reported only after every
 * complete tick before it was returned.
 *
 * <p>Thread-safety: not thread-safe.
 */
public final class TraceReader implements Closeable {
  /** One item of a trace: a tick or a reconfiguration request. */
  public sealed interface Item permits Tick, Reconfigure {}

  /**
   * The assignments of one logical tick.
   *
   * @param number the logical tick number (0, 1, 2, ...)
   * @param values the assigned values by name, in first-assignment order
   * @param line the line the tick starts on (0 for a tick that fills a gap)
   */
  public record Tick(long number, Map<String, Value> values, int line) implements Item {}

  /**
   * A {@code @reconfigure} line.
   *
   * @param json the JSON5 request text
   * @param location where the request starts
   */
  public record Reconfigure(String json, SourceLocation location) implements Item {}

  private final String file;
  private final BufferedReader in;
  private final ArrayDeque<Item> ready = new ArrayDeque<>();
  private int lineNo;
  private long nextTick;
  private long lastTick = -1;
  private long pendingNumber = -1;
  private int pendingLine;
  private Map<String, Value> pending;
  private TraceException deferred;
  private boolean done;

  /** A reader over {@code in}; {@code file} names the trace in messages. */
  public TraceReader(String file, Reader in) {
    this.file = file;
    this.in = in instanceof BufferedReader b ? b : new BufferedReader(in);
  }

  /** Opens a trace file (UTF-8). */
  public static TraceReader open(Path path) throws IOException {
    return new TraceReader(path.toString(), Files.newBufferedReader(path, StandardCharsets.UTF_8));
  }

  /**
   * The next item, or null at the end of the trace.
   *
   * @throws TraceException for a line that cannot be read
   * @throws UncheckedIOException when reading fails
   */
  public Item next() {
    while (ready.isEmpty()) {
      if (deferred != null) {
        TraceException e = deferred;
        deferred = null;
        done = true;
        throw e;
      }
      if (done) {
        return null;
      }
      String line;
      try {
        line = in.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (line == null) {
        flushPending();
        done = true;
        continue;
      }
      lineNo++;
      try {
        readLine(line);
      } catch (TraceException e) {
        fail(e);
      }
    }
    Item head = ready.peek();
    if (head instanceof Tick t) {
      if (nextTick < t.number()) {
        // Gap ticks are made one per call: a gap of 10^12 ticks must stream, not fill memory.
        return new Tick(nextTick++, Collections.emptyMap(), 0);
      }
      nextTick = t.number() + 1;
    }
    return ready.poll();
  }

  /** Reports an error after the complete ticks already read. */
  private void fail(TraceException e) {
    if (ready.isEmpty()) {
      done = true;
      throw e;
    }
    deferred = e;
  }

  private void readLine(String line) {
    int start = 0;
    while (start < line.length() && Character.isWhitespace(line.charAt(start))) {
      start++;
    }
    if (start == line.length() || line.startsWith("//", start)) {
      return;
    }
    if (lineNo == 1 && line.charAt(0) == '\uFEFF') {
      readLine(line.substring(1));
      return;
    }
    char c = line.charAt(start);
    if (c == '@') {
      directive(line, start);
    } else if (isDigit(c) && isTickLine(line, start)) {
      tickLine(line, start);
    } else if (c == '-' && start + 1 < line.length() && isDigit(line.charAt(start + 1))
        && isTickLine(line, start + 1)) {
      // A negative tick is a bad tick line, not a bad continuation: the tick above is complete.
      flushPending();
      int end = start + 1;
      while (isDigit(line.charAt(end))) {
        end++;
      }
      throw error(start, "tick numbers are non-negative: " + line.substring(start, end));
    } else {
      if (pending == null) {
        // After @reconfigure there is a previous tick, but the assignment belongs to none.
        String where =
            lastTick < 0 ? "before the first tick" : "after @reconfigure, outside a tick";
        throw error(start, "assignment " + where + " (start a tick with 'N: name = value')");
      }
      assignment(line, start, pending);
    }
  }

  /** ASCII only: Character.isDigit accepts other scripts' digits, which ticks do not use. */
  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isTickLine(String line, int start) {
    int i = start;
    while (i < line.length() && isDigit(line.charAt(i))) {
      i++;
    }
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
      i++;
    }
    return i < line.length() && line.charAt(i) == ':';
  }

  private void tickLine(String line, int start) {
    flushPending();
    int i = start;
    while (isDigit(line.charAt(i))) {
      i++;
    }
    long number;
    try {
      number = Long.parseLong(line.substring(start, i));
    } catch (NumberFormatException e) {
      throw error(start, "tick number out of range: " + line.substring(start, i));
    }
    if (number <= lastTick) {
      throw error(start, "tick " + number + " is not greater than the previous tick " + lastTick);
    }
    i = line.indexOf(':', i) + 1;
    Map<String, Value> values = new LinkedHashMap<>();
    while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    if (i < line.length() && !line.startsWith("//", i)) {
      assignment(line, i, values);
    }
    lastTick = number;
    pending = values;
    pendingNumber = number;
    pendingLine = lineNo;
  }

  private void assignment(String line, int start, Map<String, Value> into) {
    int i = start;
    if (i >= line.length() || !(Character.isLetter(line.charAt(i)) || line.charAt(i) == '_')) {
      throw error(i, "expected 'name = value'");
    }
    while (i < line.length() && (Character.isLetterOrDigit(line.charAt(i))
        || line.charAt(i) == '_')) {
      i++;
    }
    String name = line.substring(start, i);
    while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    if (i >= line.length() || line.charAt(i) != '=') {
      throw error(i, "expected '=' after '" + name + "'");
    }
    Value v;
    try {
      v = TraceValueParser.parse(line, i + 1);
    } catch (TraceValueParser.Failure f) {
      throw error(f.offset, f.getMessage());
    }
    into.put(name, v); // the last assignment wins; the name keeps its first position
  }

  private void directive(String line, int start) {
    int i = start + 1;
    while (i < line.length() && Character.isLetter(line.charAt(i))) {
      i++;
    }
    String name = line.substring(start + 1, i);
    flushPending(); // a directive line ends the tick above, even when it is a bad one
    if (!name.equals("reconfigure")) {
      throw error(start, "unknown directive '@" + name + "' (expected @reconfigure)");
    }
    while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    String json = line.substring(i);
    SourceLocation at = new SourceLocation(file, lineNo, i + 1);
    try {
      Json5.syntaxCheck(json);
    } catch (Json5.SyntaxError e) {
      throw new TraceException(new SourceLocation(file, lineNo, i + e.column()),
          "malformed @reconfigure request: " + e.getMessage());
    }
    ready.add(new Reconfigure(json, at));
  }

  private void flushPending() {
    if (pending == null) {
      return;
    }
    ready.add(new Tick(pendingNumber, Collections.unmodifiableMap(pending), pendingLine));
    pending = null;
  }

  private TraceException error(int offset, String message) {
    return new TraceException(new SourceLocation(file, lineNo, offset + 1), message);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
