package io.dataflow.reconfig.internal;

import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.monitor.TypingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.dataflow.reconfig.ReconfigurationException;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.Bindings;
import io.dataflow.reconfig.IoFactory;
import io.dataflow.reconfig.ReconfigurationRequest;

/**
 * Resource-free planning, in this order: validate the request, compile the replacement, plan
 * the input, plan the output, plan the monitor, assemble one {@link RuntimeReconfigurationPlan}.
 * Nothing is opened or mutated; a failure leaves every active structure as it was.
 */
public final class ReconfigurationPlanner {
  /** What planning reads of the active configuration (a snapshot). */
  record Active(DataflowProgram program, boolean monitorFailed, Map<String, Set<String>> sources,
      Map<String, IoSpec> sourceSpecs, Map<String, String> inputOwners,
      Map<String, Set<String>> destinations, Map<String, IoSpec> destinationSpecs,
      Map<String, String> outputOwners, Set<String> taps) {}

  /** The plan plus the explicit ownership to remember once it is applied. */
  record Result(RuntimeReconfigurationPlan plan, Map<String, String> inputOwners,
      Map<String, String> outputOwners) {}

  private final IoFactory factory;
  private final TypingMode typingMode;
  private final boolean contextTransfer;

  public ReconfigurationPlanner(IoFactory factory, TypingMode typingMode, boolean contextTransfer) {
    this.factory = factory;
    this.typingMode = typingMode;
    this.contextTransfer = contextTransfer;
  }

  Result plan(ReconfigurationRequest request, Active active) {
    // 1. validate, 2. compile the replacement
    DataflowProgram candidate = compile(request);
    try {
      factory.validateProgram(candidate, request);
    } catch (IllegalArgumentException e) {
      throw new ReconfigurationException(e.getMessage(), e);
    }
    // 3. input (a new input stream without a source gets the factory's default one)
    List<String> newInputs = new ArrayList<>(candidate.inputs().names());
    newInputs.removeAll(active.program().inputs().names());
    Side in = side(request.input(), active.sources(), active.sourceSpecs(),
        active.inputOwners(), names(candidate.inputs().names()), "source", "input",
        newInputs);
    boolean inChanged = !names(active.program().inputs().names())
        .equals(names(candidate.inputs().names())) || !in.moved.isEmpty();
    InputPipelineReconfigurationPlan inputPlan = new InputPipelineReconfigurationPlan(
        in.unchanged, in.added, in.removed, in.routing, in.moved, inChanged);
    // 4. output (taps are the application's: a request cannot remove, replace or bind them)
    Side out = side(withoutTaps(request.output(), active.taps()), active.destinations(),
        active.destinationSpecs(), active.outputOwners(), names(candidate.outputs().names()), "destination", "output",
        null);
    boolean outChanged = !names(active.program().outputs().names())
        .equals(names(candidate.outputs().names())) || !out.moved.isEmpty();
    OutputPipelineReconfigurationPlan outputPlan = new OutputPipelineReconfigurationPlan(
        out.unchanged, out.added, out.removed, out.routing, out.moved, outChanged);
    // 5. monitor
    boolean sameKey = active.program().definitionKey().equals(candidate.definitionKey());
    MonitorReconfigurationPlan monitorPlan = monitorPlan(active.program(), candidate,
        active.monitorFailed());
    // 6. assemble
    RuntimeReconfigurationPlan plan = new RuntimeReconfigurationPlan(request, candidate,
        inputPlan, outputPlan, monitorPlan, !sameKey, inChanged || outChanged);
    return new Result(plan, in.owners, out.owners);
  }

  /**
   * A monitor-only plan, for a runtime whose input and output are fixed by its source and sink
   * (the keyed pipeline).
   *
   * @param candidate the compiled replacement
   * @param monitor what happens to every key's monitor
   * @param monitorChanged the definition key changed
   */
  public record MonitorOnlyPlan(DataflowProgram candidate, MonitorReconfigurationPlan monitor,
      boolean monitorChanged) {}

  /**
   * Plans {@code request} against {@code active} for a runtime without input or output
   * bindings: the same validation, compilation and monitor planning as {@link #plan}; a request
   * that names bindings is refused. Nothing is mutated.
   *
   * @throws ReconfigurationException when the request is refused
   */
  public MonitorOnlyPlan planMonitorOnly(ReconfigurationRequest request, DataflowProgram active) {
    if (request.input() != null || request.output() != null) {
      throw new ReconfigurationException("this runtime's input and output are fixed by its"
          + " source and sink; the request may only replace the specification");
    }
    DataflowProgram candidate = compile(request);
    return new MonitorOnlyPlan(candidate, monitorPlan(active, candidate, false),
        !active.definitionKey().equals(candidate.definitionKey()));
  }

  private DataflowProgram compile(ReconfigurationRequest request) {
    // The record validated its fields when it was decoded.
    if (request.specification().isBlank()) {
      throw new ReconfigurationException("the request's specification is blank");
    }
    try {
      return DataflowProgram.compile("<request from " + request.origin() + ">",
          request.specification(), typingMode);
    } catch (SpecException e) {
      throw new ReconfigurationException("the replacement specification does not compile: "
          + e.getMessage(), e);
    }
  }

  private MonitorReconfigurationPlan monitorPlan(DataflowProgram active,
      DataflowProgram candidate, boolean activeFailed) {
    if (!contextTransfer) {
      return new MonitorReconfigurationPlan.InstallCold("context transfer is disabled");
    }
    if (activeFailed) {
      return new MonitorReconfigurationPlan.InstallCold("the active monitor failed");
    }
    if (active.definitionKey().equals(candidate.definitionKey())) {
      return new MonitorReconfigurationPlan.RetainExact();
    }
    return new MonitorReconfigurationPlan.Transfer(TransferMapping.plan(active, candidate));
  }

  /**
   * The request's output bindings without the taps it lists as {@code keep} (a no-op: a tap
   * always stays); a tap given a type or bound to a stream is refused.
   */
  private static Bindings withoutTaps(Bindings b, Set<String> taps) {
    if (b == null || taps.isEmpty()) {
      return b;
    }
    b.streams().forEach((stream, owner) -> {
      if (taps.contains(owner)) {
        throw new ReconfigurationException("output stream '" + stream + "' is bound to tap '"
            + owner + "'; a tap already receives every stream: bind it to a destination");
      }
    });
    if (b.endpoints() == null) {
      return b;
    }
    Map<String, IoSpec> endpoints = new LinkedHashMap<>();
    b.endpoints().forEach((name, spec) -> {
      if (!taps.contains(name)) {
        endpoints.put(name, spec);
      } else if (!spec.isKeep()) {
        throw new ReconfigurationException("destination '" + name + "' is a tap the"
            + " application attached; a request cannot replace or remove it (it keeps receiving"
            + " every stream)");
      }
    });
    return new Bindings(endpoints, b.streams());
  }

  /** One side's plan, before it becomes a record. */
  private static final class Side {
    final List<String> unchanged = new ArrayList<>();
    final Map<String, IoSpec> added = new LinkedHashMap<>();
    final List<String> removed = new ArrayList<>();
    final Map<String, Set<String>> routing = new LinkedHashMap<>();
    final List<String> moved = new ArrayList<>();
    Map<String, String> owners;
  }

  /**
   * Plans one side.
   *
   * @param newInputs on the input side, the input streams the active program lacks (which may
   *     get the factory's default source); null on the output side
   */
  private Side side(Bindings b, Map<String, Set<String>> current, Map<String, IoSpec> specs,
      Map<String, String> explicit, Set<String> streamNames, String what, String half,
      List<String> newInputs) {
    boolean input = newInputs != null;
    Side s = new Side();
    Set<String> finalSet = new java.util.LinkedHashSet<>();
    if (b == null || b.endpoints() == null) {
      s.unchanged.addAll(current.keySet());
      finalSet.addAll(current.keySet());
    } else {
      for (Map.Entry<String, IoSpec> e : b.endpoints().entrySet()) {
        String name = e.getKey();
        IoSpec spec = e.getValue();
        finalSet.add(name);
        if (current.containsKey(name)) {
          if (spec.isKeep() || spec.equals(specs.get(name))) {
            s.unchanged.add(name);
          } else {
            validate(spec, what, name, input);
            s.removed.add(name);
            s.added.put(name, spec);
          }
        } else if (spec.isKeep()) {
          throw new ReconfigurationException("unknown " + what + " '" + name
              + "' (give it a type to create it)");
        } else {
          validate(spec, what, name, input);
          s.added.put(name, spec);
        }
      }
      for (String name : current.keySet()) {
        if (!finalSet.contains(name)) {
          s.removed.add(name);
        }
      }
    }
    if (input) {
      defaultSources(b, newInputs, finalSet, s);
    }
    // Explicit ownership: what was bound before (for streams that still exist) plus the request.
    Map<String, String> owners = new LinkedHashMap<>();
    explicit.forEach((stream, owner) -> {
      if (streamNames.contains(stream) && finalSet.contains(owner)) {
        owners.put(stream, owner);
      }
    });
    if (b != null) {
      for (Map.Entry<String, String> e : b.streams().entrySet()) {
        if (!streamNames.contains(e.getKey())) {
          throw new ReconfigurationException("'" + e.getKey() + "' is not an " + half
              + " of the replacement specification");
        }
        if (!finalSet.contains(e.getValue())) {
          throw new ReconfigurationException(half + " stream '" + e.getKey()
              + "' is bound to unknown " + what + " '" + e.getValue() + "'");
        }
        String before = explicit.get(e.getKey());
        if (before == null) {
          before = implicitOwner(current);
        }
        if (!e.getValue().equals(before)) {
          s.moved.add(e.getKey());
        }
        owners.put(e.getKey(), e.getValue());
      }
    }
    s.owners = owners;
    Set<String> claimed = new HashSet<>(owners.keySet());
    for (String name : finalSet) {
      Set<String> mine = new java.util.TreeSet<>();
      owners.forEach((stream, owner) -> {
        if (owner.equals(name)) {
          mine.add(stream);
        }
      });
      if (!mine.isEmpty()) {
        s.routing.put(name, Set.copyOf(mine));
      } else if (claimed.isEmpty()) {
        s.routing.put(name, null);
      } else {
        Set<String> rest = new java.util.TreeSet<>(streamNames);
        rest.removeAll(claimed);
        s.routing.put(name, Set.copyOf(rest));
      }
    }
    return s;
  }

  /**
   * Adds the factory's default source for each new input stream that has none: no source of
   * its name after the request and no explicit binding in it.
   */
  private void defaultSources(Bindings b, List<String> newInputs, Set<String> finalSet, Side s) {
    for (String stream : newInputs) {
      if (finalSet.contains(stream) || (b != null && b.streams().containsKey(stream))) {
        continue;
      }
      IoSpec spec = factory.defaultSource(stream);
      if (spec != null) {
        validate(spec, "source", stream, true);
        finalSet.add(stream);
        s.added.put(stream, spec);
      }
    }
  }

  /** The one endpoint that took every stream before, or null when that is ambiguous. */
  private static String implicitOwner(Map<String, Set<String>> current) {
    String only = null;
    for (Map.Entry<String, Set<String>> e : current.entrySet()) {
      if (e.getValue() == null) {
        if (only != null) {
          return null;
        }
        only = e.getKey();
      }
    }
    return only;
  }

  private void validate(IoSpec spec, String what, String name, boolean input) {
    try {
      if (input) {
        factory.validateSource(spec);
      } else {
        factory.validateDestination(spec);
      }
    } catch (IllegalArgumentException e) {
      throw new ReconfigurationException(what + " '" + name + "': " + e.getMessage(), e);
    }
  }

  private static Set<String> names(List<String> list) {
    return new HashSet<>(list);
  }
}
