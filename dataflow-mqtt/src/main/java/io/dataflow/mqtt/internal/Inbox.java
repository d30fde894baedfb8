package io.dataflow.mqtt.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The messages a connection received and has not acknowledged yet, in arrival order, bounded.
 * Paho's callback thread appends ({@link #add}); the owner thread reads by position and removes
 * ({@link #get}, {@link #remove}, {@link #removeIf}). Since only the owner removes, a position it
 * read stays valid until it removes something itself.
 *
 * <p>Thread-safety: safe from any thread (one lock, held briefly; no callback runs under it).
 */
final class Inbox {
  /**
   * One received message.
   *
   * @param id the packet id (0 at QoS 0)
   * @param connection the connection it arrived on: an acknowledgement only goes back on that one
   */
  record Message(String topic, byte[] payload, int id, int qos, long connection) {}

  /** What {@link #add} did. */
  enum Added {
    /** Appended. */
    ADDED,
    /** A copy the broker sent again of a message that is still waiting: dropped. */
    DUPLICATE,
    /** The inbox is full: nothing changed. */
    FULL
  }

  private final int capacity;
  private final List<Message> waiting = new ArrayList<>(); // guarded by this

  Inbox(int capacity) {
    this.capacity = capacity;
  }

  /**
   * Appends {@code m}, unless a message with its packet id from the same connection is still
   * waiting: the broker reuses a packet id only after its acknowledgement, so that is the same
   * message sent again (a broker resends what stays unacknowledged too long).
   */
  synchronized Added add(Message m) {
    if (m.qos() > 0) {
      for (Message w : waiting) {
        if (w.id() == m.id() && w.connection() == m.connection()) {
          return Added.DUPLICATE;
        }
      }
    }
    if (waiting.size() >= capacity) {
      return Added.FULL;
    }
    waiting.add(m);
    return Added.ADDED;
  }

  /** The message at {@code index}, or null past the end. */
  synchronized Message get(int index) {
    return index < waiting.size() ? waiting.get(index) : null;
  }

  /** Removes the message at {@code index}. Owner thread only. */
  synchronized void remove(int index) {
    waiting.remove(index);
  }

  /** Removes and returns the messages that {@code which} selects. Owner thread only. */
  synchronized List<Message> removeIf(Predicate<Message> which) {
    List<Message> removed = new ArrayList<>();
    waiting.removeIf(m -> which.test(m) && removed.add(m));
    return removed;
  }

  /** How many messages wait. */
  synchronized int size() {
    return waiting.size();
  }
}
