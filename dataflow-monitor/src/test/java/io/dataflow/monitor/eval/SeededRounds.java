package io.dataflow.monitor.eval;

import java.util.Random;
import java.util.function.Consumer;

/**
 * Runs a seeded check over consecutive seeds: prints the first seed, and a failure names its
 * own seed, so {@code -Ddataflow.seed=N} replays it (the testkit's generators do the same for
 * the modules that may depend on the testkit; this module's tests may not).
 */
final class SeededRounds {
  private SeededRounds() {}

  /**
   * Calls {@code check} with a {@link Random} of each seed from {@code -Ddataflow.seed} (or
   * {@code defaultSeed}) on, {@code rounds} times.
   *
   * @param test the test's name, printed with the seed
   * @param note printed after the seed (empty for none)
   */
  static void run(String test, long defaultSeed, int rounds, String note,
      Consumer<Random> check) {
    long base = Long.getLong("dataflow.seed", defaultSeed);
    System.out.println(test + ": seed " + base + " (replay with -Ddataflow.seed=" + base + ")"
        + note);
    for (int i = 0; i < rounds; i++) {
      long seed = base + i;
      try {
        check.accept(new Random(seed));
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + seed + " (replay with -Ddataflow.seed=" + seed + ")",
            e);
      }
    }
  }
}
