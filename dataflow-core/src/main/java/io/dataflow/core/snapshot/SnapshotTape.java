package io.dataflow.core.snapshot;

import io.dataflow.core.Value;
import java.util.Arrays;
import java.util.List;

/**
 * The streams of a snapshot read from bytes of the current format, decoded once into flat
 * arrays instead of {@link StreamState} and {@link OperatorState} records: every value in the
 * file's order on one tape, and per stream and per operator where its values start and how
 * many there are. What {@code DataflowMonitor.restore} loads a fresh monitor's slots from by
 * each stream's walk plan (docs/decisions.md, "A snapshot read from bytes is restored from its
 * decoded values"). It is filled by the same pass of the decoder that checks the file, so a
 * snapshot that has one was read whole: structure, every value and the checksum.
 *
 * <p>Per stream, the tape holds its current value, its last present value when the file has
 * one ({@link #hasLastPresent}), its history samples (newest first) and then each operator's
 * values. Immutable once read; the arrays are never handed out.
 */
public final class SnapshotTape {
  // Per stream s: STREAM_INTS ints at s * STREAM_INTS, STREAM_TEXTS strings at s * STREAM_TEXTS.
  private static final int VALUE_AT = 0;
  private static final int LAST_PRESENT = 1;
  private static final int DEPTH = 2;
  private static final int HISTORY = 3;
  private static final int FIRST_OPERATOR = 4;
  private static final int OPERATORS = 5;
  private static final int STREAM_INTS = 6;
  private static final int NAME = 0;
  private static final int ROLE = 1;
  private static final int TYPE = 2;
  private static final int FINGERPRINT = 3;
  private static final int STREAM_TEXTS = 4;

  private final int streams;
  private final int[] ints;
  private final String[] texts;
  /** Per operator: its kind. */
  private String[] kinds = new String[4];
  /** Per operator k: where its values start at {@code 2k}, how many at {@code 2k + 1}. */
  private int[] operatorValues = new int[8];
  private int operatorCount;
  private Value[] values;
  private int valueCount;

  /** A tape of {@code streams} streams, sized for a file of {@code bytes} bytes. */
  SnapshotTape(int streams, int bytes) {
    this.streams = streams;
    ints = new int[streams * STREAM_INTS];
    texts = new String[streams * STREAM_TEXTS];
    values = new Value[Math.max(8, Math.min(bytes / 2, 4 * streams + 4))];
  }

  // ---- filled by the decoder ----

  /** Where the next value goes. */
  int mark() {
    return valueCount;
  }

  /** The number of operators recorded so far (where the next one goes). */
  int operatorMark() {
    return operatorCount;
  }

  void add(Value v) {
    if (valueCount == values.length) {
      values = Arrays.copyOf(values, 2 * values.length);
    }
    values[valueCount++] = v;
  }

  void operator(String kind, int at, int count) {
    if (operatorCount == kinds.length) {
      kinds = Arrays.copyOf(kinds, 2 * operatorCount);
      operatorValues = Arrays.copyOf(operatorValues, 4 * operatorCount);
    }
    kinds[operatorCount] = kind;
    operatorValues[2 * operatorCount] = at;
    operatorValues[2 * operatorCount + 1] = count;
    operatorCount++;
  }

  void stream(int index, String name, String role, String declaredType, String fingerprint,
      int at, boolean hasLastPresent, int historyDepth, int samples, int firstOperator,
      int operatorsOfStream) {
    int t = index * STREAM_TEXTS;
    texts[t + NAME] = name;
    texts[t + ROLE] = role;
    texts[t + TYPE] = declaredType;
    texts[t + FINGERPRINT] = fingerprint;
    int i = index * STREAM_INTS;
    ints[i + VALUE_AT] = at;
    ints[i + LAST_PRESENT] = hasLastPresent ? 1 : 0;
    ints[i + DEPTH] = historyDepth;
    ints[i + HISTORY] = samples;
    ints[i + FIRST_OPERATOR] = firstOperator;
    ints[i + OPERATORS] = operatorsOfStream;
  }

  /**
   * The records of the streams, equal to those the records reader builds from the same bytes
   * ({@link MonitorSnapshot#streams()} of a snapshot read onto a tape).
   */
  List<StreamState> records() {
    StreamState[] out = new StreamState[streams];
    for (int s = 0; s < streams; s++) {
      int i = s * STREAM_INTS;
      List<Value> history = range(historyAt(s), ints[i + HISTORY]);
      List<OperatorState> ops;
      int n = ints[i + OPERATORS];
      if (n == 0) {
        ops = List.of();
      } else {
        OperatorState[] o = new OperatorState[n];
        for (int j = 0; j < n; j++) {
          int op = ints[i + FIRST_OPERATOR] + j;
          o[j] = new OperatorState(kinds[op], range(operatorValues[2 * op],
              operatorValues[2 * op + 1]));
        }
        ops = OwnedList.of(o);
      }
      int t = s * STREAM_TEXTS;
      out[s] = new StreamState(texts[t + NAME], texts[t + ROLE], texts[t + TYPE],
          texts[t + FINGERPRINT], current(s), lastPresent(s), ints[i + DEPTH], history, ops);
    }
    return OwnedList.of(out);
  }

  private List<Value> range(int from, int n) {
    return n == 0 ? List.of() : OwnedList.of(Arrays.copyOfRange(values, from, from + n));
  }

  private int historyAt(int s) {
    int i = s * STREAM_INTS;
    return ints[i + VALUE_AT] + 1 + ints[i + LAST_PRESENT];
  }

  // ---- read by the restore ----

  /** The number of streams. */
  public int streams() {
    return streams;
  }

  /** Stream {@code s}'s name. */
  public String name(int s) {
    return texts[s * STREAM_TEXTS + NAME];
  }

  /** Stream {@code s}'s fingerprint as the file holds it (see {@link MonitorSnapshot#sameHash}). */
  public String fingerprint(int s) {
    return texts[s * STREAM_TEXTS + FINGERPRINT];
  }

  /** Stream {@code s}'s current value. */
  public Value current(int s) {
    return values[ints[s * STREAM_INTS + VALUE_AT]];
  }

  /** Whether the file holds a last present value for stream {@code s} (else it is NoVal). */
  public boolean hasLastPresent(int s) {
    return ints[s * STREAM_INTS + LAST_PRESENT] != 0;
  }

  /** Stream {@code s}'s last present value (NoVal when it has none). */
  public Value lastPresent(int s) {
    int i = s * STREAM_INTS;
    return ints[i + LAST_PRESENT] != 0 ? values[ints[i + VALUE_AT] + 1] : Value.NOVAL;
  }

  /** Stream {@code s}'s history depth. */
  public int historyDepth(int s) {
    return ints[s * STREAM_INTS + DEPTH];
  }

  /** The number of history samples of stream {@code s}. */
  public int historySize(int s) {
    return ints[s * STREAM_INTS + HISTORY];
  }

  /** Stream {@code s}'s history sample {@code k} (0 the newest). */
  public Value history(int s, int k) {
    return values[historyAt(s) + k];
  }

  /** The index of stream {@code s}'s first operator (for {@link #kind} and {@link #value}). */
  public int firstOperator(int s) {
    return ints[s * STREAM_INTS + FIRST_OPERATOR];
  }

  /** The number of stream {@code s}'s operators. */
  public int operators(int s) {
    return ints[s * STREAM_INTS + OPERATORS];
  }

  /** Operator {@code op}'s kind. */
  public String kind(int op) {
    return kinds[op];
  }

  /** The number of operator {@code op}'s values. */
  public int valueCount(int op) {
    return operatorValues[2 * op + 1];
  }

  /** Operator {@code op}'s value {@code k}. */
  public Value value(int op, int k) {
    return values[operatorValues[2 * op] + k];
  }
}
