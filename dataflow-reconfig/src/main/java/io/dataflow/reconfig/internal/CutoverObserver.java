package io.dataflow.reconfig.internal;


/**
 * Watches a cutover: called on the owner thread before each application step. Throwing fails
 * that step, which is how tests inject faults into a cutover; the run then ends after draining
 * its output, with every earlier step left applied (there is no rollback).
 */
@FunctionalInterface
public interface CutoverObserver {
  /** Called before {@code step} of the cutover for {@code plan}. */
  void beforeStep(CutoverStep step, RuntimeReconfigurationPlan plan) throws Exception;

  /** An observer that does nothing. */
  CutoverObserver NONE = (step, plan) -> {};
}
