package io.dataflow.mqtt.internal;

import java.util.ArrayDeque;

/**
 * The messages a connection received and has not acknowledged yet, in arrival order, bounded.
 * Paho's callback thread appends ({@link #add}); the owner thread takes from the head
 * ({@link #peek}, then {@link #removeFirst} once the message was consumed). Since only the owner
 * removes, the head it peeked stays the head until it removes it.
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
  private final ArrayDeque<Message> waiting = new ArrayDeque<>(); // guarded by this

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

  /** The oldest message, or null when none waits. */
  synchronized Message peek() {
    return waiting.peekFirst();
  }

  /** Removes the oldest message (the one {@link #peek} returned). Owner thread only. */
  synchronized void removeFirst() {
    waiting.pollFirst();
  }
}
