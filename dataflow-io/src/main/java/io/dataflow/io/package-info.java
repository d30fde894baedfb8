/**
 * Sources, sinks and codecs, and the pipeline sessions that own them in a runtime.
 *
 * <ul>
 *   <li>Trace files: {@link io.dataflow.io.TraceReader} (docs/io.md#trace-files),
 *       {@link io.dataflow.io.TraceFileSource}.
 *   <li>JSON Lines: {@link io.dataflow.io.JsonLinesSource}, {@link io.dataflow.io.JsonLinesOutputWriter},
 *       the value encoding {@link io.dataflow.io.internal.JsonValues}, the lenient reader
 *       {@link io.dataflow.io.internal.Json5}.
 *   <li>Text output: {@link io.dataflow.io.TextOutputWriter} (docs/language.md#text-output).
 *   <li>In memory and helpers: {@link io.dataflow.io.InMemorySource}, {@link io.dataflow.io.Sinks}
 *       (text, JSON Lines, callback, collecting, null), {@link io.dataflow.io.AsyncOutputWriter}.
 *   <li>Sessions: {@link io.dataflow.io.internal.InputPipelineSession},
 *       {@link io.dataflow.io.internal.OutputPipelineSession}.
 * </ul>
 *
 * <p>What does not: the owner loop ({@code dataflow-core}), request decoding and planning
 * ({@code dataflow-reconfig}).
 */
package io.dataflow.io;
