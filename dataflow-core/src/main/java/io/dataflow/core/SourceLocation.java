package io.dataflow.core;

/**
 * A position in a named text: a specification, a trace file, a request. Lines and columns
 * count from 1; the column counts characters (UTF-16 units) from the start of the line.
 *
 * @param file the file or text name ({@code spec.dsrv}, {@code <request>}, ...)
 * @param line the line, from 1
 * @param column the column, from 1
 */
public record SourceLocation(String file, int line, int column) {
  /** Renders {@code file:line:column}. */
  @Override
  public String toString() {
    return file + ":" + line + ":" + column;
  }
}
