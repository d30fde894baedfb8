package io.dataflow.reconfig;

/**
 * Watches a cutover: called on the owner thread before each of its seven application steps
 * (for metrics, logs, or a test that injects a fault). Throwing fails that step; the run then
 * ends after draining its output, with every earlier step left applied (there is no rollback).
 * It must not block.
 */
@FunctionalInterface
public interface CutoverObserver {
  /** Called before {@code step} of an accepted request's cutover. */
  void beforeStep(CutoverStep step) throws Exception;

  /** An observer that does nothing. */
  CutoverObserver NONE = step -> {};
}
