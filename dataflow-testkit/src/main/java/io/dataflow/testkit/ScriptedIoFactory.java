package io.dataflow.testkit;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;
import io.dataflow.reconfig.IoFactory;
import io.dataflow.reconfig.IoSpec;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * An {@link IoFactory} for tests: a request names {@code {type: "scripted", ref: "name"}} and
 * gets the source or writer registered under that ref, or an injected creation failure.
 *
 * <p>Thread-safety: configure before the run; used on the owner thread.
 */
public final class ScriptedIoFactory implements IoFactory {
  private final Map<String, Source> sources = new HashMap<>();
  private final Map<String, OutputWriter> writers = new HashMap<>();
  private final Set<String> failing = new HashSet<>();

  /** Registers a source under a ref. */
  public ScriptedIoFactory source(String ref, Source source) {
    sources.put(ref, source);
    return this;
  }

  /** Registers a writer under a ref. */
  public ScriptedIoFactory writer(String ref, OutputWriter writer) {
    writers.put(ref, writer);
    return this;
  }

  /** Makes creating the ref fail. */
  public ScriptedIoFactory failCreating(String ref) {
    failing.add(ref);
    return this;
  }

  @Override
  public void validateSource(IoSpec spec) {
    check(spec);
  }

  @Override
  public Source createSource(String name, IoSpec spec) throws IOException {
    String ref = check(spec);
    if (failing.contains(ref)) {
      throw new IOException("injected failure creating source " + ref);
    }
    Source s = sources.get(ref);
    if (s == null) {
      throw new IllegalArgumentException("no scripted source '" + ref + "'");
    }
    return s;
  }

  @Override
  public void validateDestination(IoSpec spec) {
    check(spec);
  }

  @Override
  public OutputWriter createDestination(String name, IoSpec spec) throws IOException {
    String ref = check(spec);
    if (failing.contains(ref)) {
      throw new IOException("injected failure creating destination " + ref);
    }
    OutputWriter w = writers.get(ref);
    if (w == null) {
      throw new IllegalArgumentException("no scripted writer '" + ref + "'");
    }
    return w;
  }

  private static String check(IoSpec spec) {
    if (!"scripted".equals(spec.type())) {
      throw new IllegalArgumentException("unknown type '" + spec.type() + "' (only 'scripted')");
    }
    return spec.require("ref");
  }
}
