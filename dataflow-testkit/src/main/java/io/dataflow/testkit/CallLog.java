package io.dataflow.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * An ordered record of effects (source opened, row fed, sink flushed, ...) shared by scripted
 * sources and sinks, so a test can assert the exact sequence across all of them.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class CallLog {
  private final List<String> entries = new ArrayList<>();

  /** Records one effect. */
  public synchronized void record(String entry) {
    entries.add(entry);
  }

  /** Every effect so far, in order. */
  public synchronized List<String> entries() {
    return List.copyOf(entries);
  }

  /** The effects that start with {@code prefix}, in order. */
  public synchronized List<String> entries(String prefix) {
    List<String> out = new ArrayList<>();
    for (String e : entries) {
      if (e.startsWith(prefix)) {
        out.add(e);
      }
    }
    return out;
  }

  @Override
  public synchronized String toString() {
    return String.join("\n", entries);
  }
}
