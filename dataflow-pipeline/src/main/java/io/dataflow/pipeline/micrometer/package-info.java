/**
 * Micrometer meters of a keyed pipeline ({@link io.dataflow.pipeline.micrometer.PipelineMetrics}).
 * The only package that needs Micrometer, an optional dependency of this module.
 */
package io.dataflow.pipeline.micrometer;
