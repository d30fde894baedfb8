/**
 * Sources, sinks and codecs: the ready-made implementations of {@link io.dataflow.core.spi.Source}
 * and {@link io.dataflow.core.spi.OutputWriter} (docs/io.md).
 *
 * <ul>
 *   <li>Trace files: {@link io.dataflow.io.TraceReader} (docs/io.md#trace-files),
 *       {@link io.dataflow.io.TraceFileSource}, {@link io.dataflow.io.TraceException} for a line
 *       that cannot be read.
 *   <li>JSON Lines: {@link io.dataflow.io.JsonLinesSource},
 *       {@link io.dataflow.io.JsonLinesOutputWriter}.
 *   <li>Text output: {@link io.dataflow.io.TextOutputWriter} (docs/language.md#text-output).
 *   <li>Package-private speed: the byte paths of the readers ({@code TraceReader}'s,
 *       {@code JsonLineScanner}) and the byte writers behind {@link io.dataflow.io.Sinks}
 *       ({@code Utf8TextWriter}, {@code Utf8JsonLinesWriter}), each checked against the general
 *       path it shortcuts.
 *   <li>In memory and helpers: {@link io.dataflow.io.InMemorySource}, {@link io.dataflow.io.Sinks}
 *       (text, JSON Lines, callback, view callback, collecting, null),
 *       {@link io.dataflow.io.OutputRow} (what a callback or a collecting sink receives, boxed),
 *       {@link io.dataflow.io.OutputRowView} (what a view callback reads typed slots from,
 *       without boxing), {@link io.dataflow.io.AsyncOutputWriter} (a slow destination off the
 *       owner thread).
 * </ul>
 *
 * <p>What does not: the pipeline sessions that own the sources and destinations in a runtime,
 * the value encoding of JSON Lines ({@code JsonValues}, documented in docs/io.md), the lenient
 * JSON5 reader and the other codec machinery, all in {@code io.dataflow.io.internal}, which the
 * module exports only to {@code dataflow-reconfig} and {@code dataflow-testkit}; the interfaces
 * these classes implement ({@link io.dataflow.core.spi}); the owner loop ({@code dataflow-core});
 * request decoding and planning ({@code dataflow-reconfig}).
 */
package io.dataflow.io;
