package io.dataflow.monitor.eval;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * State a node recomputes before anything reads it, so a snapshot (format version 4 on) leaves
 * it out and a restore keeps what the freshly built node holds ({@link StateWalker}): on a
 * field, that field (configuration set by the builder, a tick's scratch values); on a node
 * class, the node's own result slot (its {@code eval} writes it on every path before a parent
 * reads it, or it is a constant the program holds). Snapshots of versions 1 to 3 carry these
 * values; a restore from one reads and drops them.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.TYPE})
@interface Derived {}
