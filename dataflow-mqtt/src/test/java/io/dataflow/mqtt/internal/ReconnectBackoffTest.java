package io.dataflow.mqtt.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Backoff;
import io.dataflow.mqtt.Moquette;
import io.dataflow.mqtt.MqttStatus;
import io.dataflow.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reconnect duty cycle, stepped on a manual clock: no runner thread, no sleeping. */
class ReconnectBackoffTest {
  @TempDir
  Path dir;

  @Test
  void attemptsFollowTheCappedBackoffAndTheStatusKeepsTheLastError() {
    ManualClock clock = new ManualClock();
    int port = Moquette.freePort();
    MqttConnection c = new MqttConnection("tcp://127.0.0.1:" + port, "backoff-test", clock,
        new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(4), 2.0, Integer.MAX_VALUE), 1);
    try {
      // The first attempt is due at once; nobody listens, so it fails.
      assertThat(c.doWork(clock.nanoTime())).isEqualTo(1);
      MqttStatus s = c.status();
      assertThat(s.connected()).isFalse();
      assertThat(s.attempts()).isEqualTo(1);
      assertThat(s.lastError()).isNotBlank();
      // The next one waits 1 s, then 2 s, then 4 s, then 4 s (the cap).
      assertThat(attemptsAfter(c, clock, Duration.ZERO)).isEqualTo(1);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(999))).isEqualTo(1);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(1))).isEqualTo(2);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(1999))).isEqualTo(2);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(1))).isEqualTo(3);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(3999))).isEqualTo(3);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(1))).isEqualTo(4);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(3999))).isEqualTo(4);
      assertThat(attemptsAfter(c, clock, Duration.ofMillis(1))).isEqualTo(5);

      // The broker comes up: the next due attempt connects and the count starts over.
      try (Moquette broker = Moquette.startOn(port, dir)) {
        assertThat(attemptsAfter(c, clock, Duration.ofSeconds(3))).isEqualTo(5);
        clock.advance(Duration.ofSeconds(1));
        assertThat(c.doWork(clock.nanoTime())).isEqualTo(1);
        s = c.status();
        assertThat(s.connected()).isTrue();
        assertThat(s.attempts()).isZero();
        assertThat(s.connects()).isEqualTo(1);
        assertThat(s.lastError()).isNotBlank(); // the last error stays visible
        c.close(100);
      }
    } finally {
      c.close(0);
    }
  }

  private static int attemptsAfter(MqttConnection c, ManualClock clock, Duration d) {
    clock.advance(d);
    c.doWork(clock.nanoTime());
    return c.status().attempts();
  }
}
