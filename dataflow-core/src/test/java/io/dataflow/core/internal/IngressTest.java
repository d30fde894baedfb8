package io.dataflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Clock;
import io.dataflow.core.IngressException;
import io.dataflow.core.SystemClock;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hand-off from producers to the owner: an offer unparks the owner only when it is parked,
 * a parked owner is never left asleep with an item queued, and a full queue is refused or
 * waited for, never dropped. Real threads on the system clock; every wait is bounded.
 */
class IngressTest {
  private static final Clock CLOCK = SystemClock.INSTANCE;
  private static final Tick TICK = Tick.of("x", Value.of(1));

  private static Ingress.Item item(int i) {
    return new Ingress.Single("p", Tick.of("x", Value.of(i)));
  }

  @Test
  void offersWhileTheOwnerIsBusyNeverUnparkIt() {
    Ingress ingress = new Ingress(64, CLOCK, "t");
    ingress.setOwner(Thread.currentThread());
    for (int i = 0; i < 10_000; i++) {
      assertThat(ingress.offer(item(i), true)).isTrue();
      if (i % 8 == 7) {
        for (int k = 0; k < 8; k++) {
          assertThat(ingress.poll()).isNotNull(); // the busy owner drains
        }
      }
    }
    assertThat(ingress.ownerWakeups()).as("unparks of an owner that never parked").isZero();
  }

  @Test
  @Timeout(30)
  void anOfferUnparksAParkedOwner() throws Exception {
    Ingress ingress = new Ingress(16, CLOCK, "t");
    AtomicReference<Ingress.Item> got = new AtomicReference<>();
    Thread owner = new Thread(() -> {
      Ingress.Item item;
      while ((item = ingress.poll()) == null) {
        ingress.parkOwner(CLOCK.nanoTime() + TimeUnit.SECONDS.toNanos(60));
      }
      got.set(item);
    }, "owner");
    ingress.setOwner(owner);
    owner.start();
    awaitParked(ingress);
    Ingress.Item sent = new Ingress.Single("p", TICK);
    assertThat(ingress.offer(sent, true)).isTrue();
    owner.join(TimeUnit.SECONDS.toMillis(10)); // parked for 60 s unless the offer woke it
    assertThat(owner.isAlive()).as("owner still parked").isFalse();
    assertThat(got.get()).isSameAs(sent);
    assertThat(ingress.ownerWakeups()).isEqualTo(1);
  }

  @Test
  @Timeout(10)
  void theOwnerDoesNotParkWhileAnItemIsQueued() {
    Ingress ingress = new Ingress(16, CLOCK, "t");
    ingress.setOwner(Thread.currentThread());
    ingress.offer(new Ingress.Single("p", TICK), true);
    ingress.parkOwner(CLOCK.nanoTime() + TimeUnit.SECONDS.toNanos(60)); // returns at once
    assertThat(ingress.isOwnerParked()).isFalse();
    assertThat(ingress.poll()).isNotNull();
  }

  /**
   * The race the protocol closes: the owner finds the queue empty and parks just as the
   * producer offers. Thousands of round trips, each offer into an empty queue; a lost wake-up
   * would leave the owner parked until its 5 s deadline, which it reports.
   */
  @Test
  @Timeout(120)
  void noRoundTripLeavesTheOwnerParkedWithAnItemQueued() throws Exception {
    int rounds = 5_000;
    long parkNanos = TimeUnit.SECONDS.toNanos(5);
    Ingress ingress = new Ingress(4, CLOCK, "t");
    AtomicLong taken = new AtomicLong();
    AtomicLong overslept = new AtomicLong();
    Thread owner = new Thread(() -> {
      while (taken.get() < rounds) {
        if (ingress.poll() != null) {
          taken.incrementAndGet();
          continue;
        }
        long deadline = CLOCK.nanoTime() + parkNanos;
        ingress.parkOwner(deadline);
        if (CLOCK.nanoTime() - deadline >= 0 && !ingress.isEmpty()) {
          overslept.incrementAndGet();
        }
      }
    }, "owner");
    ingress.setOwner(owner);
    owner.start();
    for (int i = 0; i < rounds; i++) {
      assertThat(ingress.offer(item(i), true)).isTrue();
      long deadline = CLOCK.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (taken.get() <= i && CLOCK.nanoTime() - deadline < 0) {
        Thread.onSpinWait(); // the owner takes it, then finds the queue empty and parks
      }
      assertThat(taken.get()).as("round %d taken", i).isEqualTo(i + 1L);
    }
    owner.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(owner.isAlive()).isFalse();
    assertThat(overslept.get()).as("wake-ups lost").isZero();
  }

  @Test
  void aFullQueueRefusesAnOfferAndCountsIt() {
    Ingress ingress = new Ingress(2, CLOCK, "t");
    assertThat(ingress.offer(item(0), true)).isTrue();
    assertThat(ingress.offer(item(1), true)).isTrue();
    assertThat(ingress.offer(item(2), true)).isFalse();
    assertThat(ingress.rejectedOffers()).isEqualTo(1);
    assertThat(ingress.size()).isEqualTo(2);
  }

  @Test
  @Timeout(30)
  void aSubmitIntoAFullQueueWaitsUntilTheOwnerMakesRoom() throws Exception {
    Ingress ingress = new Ingress(2, CLOCK, "t");
    ingress.offer(item(0), true);
    ingress.offer(item(1), true);
    Thread producer = new Thread(() -> ingress.submit(item(2),
        CLOCK.nanoTime() + TimeUnit.SECONDS.toNanos(20)), "producer");
    producer.start();
    long deadline = CLOCK.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (producer.getState() != Thread.State.TIMED_WAITING) { // backing off on the clock
      assertThat(CLOCK.nanoTime() - deadline).as("producer waiting in time").isNegative();
      Thread.onSpinWait();
    }
    assertThat(ingress.size()).as("nothing dropped or squeezed in").isEqualTo(2);
    Ingress.Item first = ingress.poll();
    producer.join(TimeUnit.SECONDS.toMillis(20));
    assertThat(producer.isAlive()).isFalse();
    assertThat(((Ingress.Single) first).tick().value(0)).isEqualTo(Value.of(0));
    assertThat(ingress.size()).isEqualTo(2);
    assertThat(ingress.rejectedOffers()).isZero();
  }

  @Test
  void aSubmitIntoAQueueThatStaysFullFailsAtItsDeadline() {
    Ingress ingress = new Ingress(2, CLOCK, "t");
    ingress.offer(item(0), true);
    ingress.offer(item(1), true);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ingress.submit(item(2),
            CLOCK.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5)))
        .isInstanceOf(IngressException.class)
        .hasMessageContaining("stayed full (capacity 2) until the deadline");
    assertThat(ingress.rejectedOffers()).isEqualTo(1);
    assertThat(ingress.size()).isEqualTo(2);
  }

  private static void awaitParked(Ingress ingress) {
    long deadline = CLOCK.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ingress.isOwnerParked()) {
      assertThat(CLOCK.nanoTime() - deadline).as("owner parked in time").isNegative();
      CLOCK.backOff();
    }
  }
}
