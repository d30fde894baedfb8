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
import java.util.Collections;
import java.util.Map;
import io.dataflow.core.Kind;
import io.dataflow.io.internal.ByteLines;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.NameTable;
import io.dataflow.io.internal.PendingTick;
import io.dataflow.io.internal.TickColumnsBuilder;

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
 * <h2>Implementation note</h2>
 * A file ({@link #open}) is read as bytes: the usual line ({@code N: x = 1}, {@code y = 2.5},
 * ASCII names, Int, Float, Bool and plain string values) is parsed from the bytes without a
 * string or a boxed value; every other line, and every line with a mistake, is decoded and goes
 * through the general parser, which alone reports errors. The usual line's end is found while
 * it is parsed (its bytes are read once); other lines are split first. {@code TraceFileSource}
 * takes the ticks as columnar batches ({@link #nextBatch}); {@link #next()} boxes them.
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
  private final BufferedReader in; // a character source: every line takes the general path
  private final ByteLines bytes; // a file: the usual lines take the byte path
  private final NameTable nameTable = new NameTable();
  private int lineNo;
  private long nextTick;
  private long lastTick = -1;
  // The tick being read (while hasPending) and the complete one not yet handed out (waiting).
  private PendingTick pending = new PendingTick();
  private PendingTick waiting = new PendingTick();
  private boolean hasPending;
  private long pendingNumber;
  private int pendingLine;
  private boolean hasWaiting;
  private long waitingNumber;
  private int waitingLine;
  private Reconfigure waitingRequest; // after the waiting tick, if any
  private TickColumnsBuilder filling; // the batch nextBatch is filling (its ticks are ready)
  private TraceException deferred;
  private boolean done;
  // The byte path's parsed value.
  private byte fastKind;
  private long fastBits;
  private Object fastRef;

  /** A reader over {@code in}; {@code file} names the trace in messages. */
  public TraceReader(String file, Reader in) {
    this.file = file;
    this.in = in instanceof BufferedReader b ? b : new BufferedReader(in);
    this.bytes = null;
  }

  private TraceReader(String file, ByteLines bytes) {
    this.file = file;
    this.in = null;
    this.bytes = bytes;
  }

  /** Opens a trace file (UTF-8). */
  public static TraceReader open(Path path) throws IOException {
    return new TraceReader(path.toString(), new ByteLines(Files.newInputStream(path)));
  }

  /** Opens a trace file read in blocks of {@code bufferSize} bytes (tests: lines split by them). */
  static TraceReader open(Path path, int bufferSize) throws IOException {
    return new TraceReader(path.toString(),
        new ByteLines(Files.newInputStream(path), bufferSize));
  }

  /**
   * The next item, or null at the end of the trace.
   *
   * @throws TraceException for a line that cannot be read
   * @throws UncheckedIOException when reading fails
   */
  public Item next() {
    while (true) {
      if (hasWaiting) {
        if (nextTick < waitingNumber) {
          // Gap ticks are made one per call: a gap of 10^12 ticks must stream, not fill memory.
          return new Tick(nextTick++, Collections.emptyMap(), 0);
        }
        hasWaiting = false;
        nextTick = waitingNumber + 1;
        return new Tick(waitingNumber, waiting.toMap(), waitingLine);
      }
      if (waitingRequest != null) {
        Reconfigure r = waitingRequest;
        waitingRequest = null;
        return r;
      }
      if (deferred != null) {
        throw takeDeferred();
      }
      if (done) {
        return null;
      }
      readOneLine();
    }
  }

  /**
   * The next ticks as one columnar batch of at most the builder's capacity (gap ticks
   * included, as ticks that assign nothing), a {@link Reconfigure} item, or null at the end.
   * The same items as {@link #next()}, ticks gathered.
   *
   * @throws TraceException for a line that cannot be read, after the ticks before it
   * @throws UncheckedIOException when reading fails
   */
  Object nextBatch(TickColumnsBuilder out) {
    filling = out;
    try {
      while (true) {
        if (hasWaiting) {
          if (nextTick < waitingNumber) {
            nextTick += out.addEmpty(waitingNumber - nextTick);
          } else {
            out.add(waiting);
            hasWaiting = false;
            nextTick = waitingNumber + 1;
          }
          if (out.isFull()) {
            return out.take();
          }
          continue;
        }
        if (waitingRequest != null || deferred != null || done) {
          if (out.size() > 0) {
            return out.take();
          }
          if (waitingRequest != null) {
            Reconfigure r = waitingRequest;
            waitingRequest = null;
            return r;
          }
          if (deferred != null) {
            throw takeDeferred();
          }
          return null;
        }
        readOneLine();
      }
    } finally {
      filling = null;
    }
  }

  private TraceException takeDeferred() {
    TraceException e = deferred;
    deferred = null;
    done = true;
    return e;
  }

  /** Reads and handles one line, or the end of the input. */
  private void readOneLine() {
    String line;
    try {
      if (bytes != null) {
        // The usual line is split from the bytes and parsed in one pass: fastLine finds its
        // end. Anything else is split by next() and read by the general path.
        int from = bytes.peek();
        if (from >= 0) {
          lineNo = bytes.lineNo() + 1;
          int end = fastLine(bytes.buffer(), from, bytes.wholeLimit(), bytes.atEnd());
          if (end >= 0) {
            bytes.take(end);
            return;
          }
        }
        boolean more = bytes.next(); // the line at from, if any
        lineNo = bytes.lineNo();
        if (!more) {
          endOfInput();
          return;
        }
        line = bytes.text();
      } else {
        line = in.readLine();
        if (line == null) {
          endOfInput();
          return;
        }
        lineNo++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      readLine(line);
    } catch (TraceException e) {
      fail(e);
    }
  }

  private void endOfInput() {
    flushPending();
    done = true;
  }

  /** True when ticks or a request wait to be handed out before an error may be. */
  private boolean anythingReady() {
    return hasWaiting || waitingRequest != null || (filling != null && filling.size() > 0);
  }

  /** Reports an error after the complete ticks already read. */
  private void fail(TraceException e) {
    if (!anythingReady()) {
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
      if (!hasPending) {
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
    pending.clear();
    while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    if (i < line.length() && !line.startsWith("//", i)) {
      assignment(line, i, pending);
    }
    beginTick(number);
  }

  private void beginTick(long number) {
    lastTick = number;
    hasPending = true;
    pendingNumber = number;
    pendingLine = lineNo;
  }

  private void assignment(String line, int start, PendingTick into) {
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
    waitingRequest = new Reconfigure(json, at);
  }

  /** The tick being read is complete: it waits to be handed out (the previous one was). */
  private void flushPending() {
    if (!hasPending) {
      return;
    }
    PendingTick t = waiting;
    waiting = pending;
    pending = t;
    pending.clear();
    hasWaiting = true;
    waitingNumber = pendingNumber;
    waitingLine = pendingLine;
    hasPending = false;
  }

  // ---------------------------------------------------------------- the byte path

  /**
   * Handles the usual line from its bytes: blank, a comment, {@code N: name = value} (or
   * {@code N:} alone) or {@code name = value}, each with an optional comment, with a value
   * {@link #fastValue} reads. The line starts at {@code from} and ends at the first {@code \n}
   * or {@code \r}, or at {@code to} when {@code toEndsLine} (else a line reaching {@code to} is
   * not read here). Returns where the line ends; or -1, having changed nothing, for anything
   * else (the general path then reads the line and reports any mistake).
   *
   * <p>One method for the whole line, as {@code JsonLineScanner.scan} is, and deliberately
   * longer than the JIT inlines (325 bytes of bytecode): C2 then compiles it once, by itself,
   * and calls it from {@link #nextBatch}'s loop, instead of compiling the line's parts again
   * inside every caller they are inlined into (docs/performance.md, "Issue 21, seventh round").
   * It finds the line's end itself, so the bytes of a usual line are read once; it is handed
   * whole lines only ({@code ByteLines.peek}), so it meets {@code to} part way through a line
   * only at the end of the stream, and C2 never compiles a branch that a block's end takes
   * (docs/performance.md, "Issue 21, tenth round").
   */
  private int fastLine(byte[] b, int from, int to, boolean toEndsLine) {
    int i = skipBlanks(b, from, to);
    if (i == to || b[i] == '\n' || b[i] == '\r' || isComment(b, i, to)) {
      i = lineEnd(b, i, to);
      return i < to || toEndsLine ? i : -1;
    }
    byte c = b[i];
    boolean tickLine = c >= '0' && c <= '9';
    long number = 0;
    if (tickLine) {
      int digits = i;
      while (i < to && b[i] >= '0' && b[i] <= '9') {
        if (i - digits == 18) {
          return -1; // perhaps out of range: the general path says
        }
        number = number * 10 + (b[i++] - '0');
      }
      i = skipBlanks(b, i, to);
      if (i == to || b[i] != ':' || number <= lastTick) {
        return -1;
      }
      i = skipBlanks(b, i + 1, to);
      if (i == to || b[i] == '\n' || b[i] == '\r' || isComment(b, i, to)) {
        i = lineEnd(b, i, to);
        if (i == to && !toEndsLine) {
          return -1;
        }
        flushPending();
        beginTick(number); // a tick line that assigns nothing
        return i;
      }
      c = b[i];
    } else if (!hasPending) {
      return -1; // an assignment outside a tick: the general path reports it
    }
    // name = value, then an optional comment
    if (!(isAsciiLetter(c) || c == '_')) {
      return -1;
    }
    int nameStart = i;
    while (i < to && (isAsciiLetterOrDigit(b[i]) || b[i] == '_')) {
      i++;
    }
    int nameEnd = i;
    i = skipBlanks(b, i, to);
    if (i == to || b[i] != '=') {
      return -1;
    }
    i = fastValue(b, skipBlanks(b, i + 1, to), to);
    if (i < 0) {
      return -1;
    }
    i = skipBlanks(b, i, to);
    if (i < to && b[i] != '\n' && b[i] != '\r') {
      if (!isComment(b, i, to)) {
        return -1;
      }
      i = lineEnd(b, i, to);
    }
    if (i == to && !toEndsLine) {
      return -1;
    }
    String name = nameTable.intern(b, nameStart, nameEnd);
    if (tickLine) {
      flushPending();
      beginTick(number);
    }
    pending.put(name, fastKind, fastBits, fastRef);
    return i;
  }

  /** True when a comment ({@code //}) starts at {@code i}. */
  private static boolean isComment(byte[] b, int i, int to) {
    return b[i] == '/' && i + 1 < to && b[i + 1] == '/';
  }

  /** The index of the first {@code \n} or {@code \r} from {@code i}, or {@code to}. */
  private static int lineEnd(byte[] b, int i, int to) {
    while (i < to && b[i] != '\n' && b[i] != '\r') {
      i++;
    }
    return i;
  }

  /**
   * Reads an Int, a Float with digits on both sides of its point or an exponent, true, false or
   * a string of printable ASCII without escapes into the fast fields; returns the index after
   * it, or -1 for anything else.
   */
  private int fastValue(byte[] b, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int i = from;
    byte c = b[i];
    if (c == '"') {
      for (i++; i < to && b[i] != '"'; i++) {
        if (b[i] < 0x20 || b[i] == '\\' || b[i] == 0x7f) {
          return -1; // non-ASCII (negative), controls and escapes: the general path
        }
      }
      if (i == to) {
        return -1;
      }
      fastKind = Kind.STR;
      fastBits = 0;
      fastRef = new String(b, from + 1, i - from - 1, StandardCharsets.ISO_8859_1);
      return i + 1;
    }
    if (isAsciiLetter(c)) {
      while (i < to && (isAsciiLetterOrDigit(b[i]) || b[i] == '_')) {
        i++;
      }
      if (i < to && b[i] < 0) {
        return -1;
      }
      int n = i - from;
      if (n == 4 && c == 't' && b[from + 1] == 'r' && b[from + 2] == 'u' && b[from + 3] == 'e') {
        fastBits = 1;
      } else if (n == 5 && c == 'f' && b[from + 1] == 'a' && b[from + 2] == 'l'
          && b[from + 3] == 's' && b[from + 4] == 'e') {
        fastBits = 0;
      } else {
        return -1;
      }
      fastKind = Kind.BOOL;
      fastRef = null;
      return i;
    }
    boolean negative = c == '-';
    if (c == '-' || c == '+') {
      i++;
    }
    int digits = i;
    long v = 0;
    while (i < to && b[i] >= '0' && b[i] <= '9') {
      if (i - digits == 18) {
        return -1;
      }
      v = v * 10 + (b[i++] - '0');
    }
    if (i == digits) {
      return -1;
    }
    boolean isFloat = false;
    if (i + 1 < to && b[i] == '.' && b[i + 1] >= '0' && b[i + 1] <= '9') {
      isFloat = true;
      for (i++; i < to && b[i] >= '0' && b[i] <= '9'; i++) {
        // the fraction
      }
    }
    if (i < to && (b[i] == 'e' || b[i] == 'E')) {
      int e = i + 1;
      if (e < to && (b[e] == '-' || b[e] == '+')) {
        e++;
      }
      if (e < to && b[e] >= '0' && b[e] <= '9') {
        isFloat = true;
        for (i = e; i < to && b[i] >= '0' && b[i] <= '9'; i++) {
          // the exponent
        }
      }
    }
    if (i < to && (isAsciiLetterOrDigit(b[i]) || b[i] == '.' || b[i] < 0)) {
      return -1;
    }
    fastRef = null;
    if (isFloat) {
      fastKind = Kind.FLOAT;
      fastBits = Double.doubleToRawLongBits(Double.parseDouble(
          new String(b, from, i - from, StandardCharsets.ISO_8859_1)));
    } else {
      fastKind = Kind.INT;
      fastBits = negative ? -v : v;
    }
    return i;
  }

  /** Skips spaces and tabs (a line with other white space takes the general path). */
  private static int skipBlanks(byte[] b, int from, int to) {
    int i = from;
    while (i < to && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean isAsciiLetter(byte c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isAsciiLetterOrDigit(byte c) {
    return isAsciiLetter(c) || (c >= '0' && c <= '9');
  }

  private TraceException error(int offset, String message) {
    return new TraceException(new SourceLocation(file, lineNo, offset + 1), message);
  }

  @Override
  public void close() throws IOException {
    if (bytes != null) {
      bytes.close();
    } else {
      in.close();
    }
  }
}
