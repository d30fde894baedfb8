package io.dataflow.core.snapshot;

import io.dataflow.core.Value;
import java.util.List;
import java.util.Objects;

/**
 * The state of one stream of a monitor.
 *
 * @param name the stream's name
 * @param role {@code input}, {@code output} or {@code aux}
 * @param declaredType the type annotation as written, or null when there is none (a restore
 *     into another program moves a history only between streams of the same declared type)
 * @param fingerprint the semantic fingerprint of its definition (what a restore into another
 *     program compares), in format version 3 its first 16 hex digits, in versions 4 and 5 its
 *     first 8 ({@link MonitorSnapshot#sameHash})
 * @param current the value of the last tick evaluated (NoVal before the first)
 * @param lastPresent the run's last value that was not NoVal as the monitor holds it: what a
 *     dynamic body reads while {@code current} is NoVal (while {@code current} is present, it
 *     is the last present value and this field may be stale; computed streams of programs
 *     without dynamic properties do not keep it)
 * @param historyDepth the depth of the stream's history ring, 0 when it has none
 * @param history the samples held by the ring, newest first (at most {@code historyDepth})
 * @param operators the state of the stream's stateful operators, in the evaluator's
 *     deterministic order (empty for an input)
 */
public record StreamState(String name, String role, String declaredType, String fingerprint, Value current, Value lastPresent,
    int historyDepth, List<Value> history, List<OperatorState> operators) {
  /** Validates and copies. */
  public StreamState {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(lastPresent, "lastPresent");
    history = OwnedList.own(history);
    operators = OwnedList.own(operators);
    if (historyDepth < 0 || history.size() > historyDepth) {
      throw new IllegalArgumentException("stream '" + name + "': " + history.size()
          + " history samples for a depth of " + historyDepth);
    }
  }
}
