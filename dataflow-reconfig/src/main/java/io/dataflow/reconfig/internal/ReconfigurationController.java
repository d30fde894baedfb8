package io.dataflow.reconfig.internal;

import io.dataflow.monitor.DataflowProgram;

import io.dataflow.core.ComponentException;
import java.util.ArrayList;
import java.util.List;

import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.internal.ControlHandler;
import io.dataflow.core.internal.DirectDataflowEngine;
import io.dataflow.core.internal.RuntimeContext;
import io.dataflow.io.internal.EncodedControlRequest;
import io.dataflow.io.internal.InputPipelineSession;
import io.dataflow.io.internal.OutputPipelineSession;
import io.dataflow.monitor.ContextTransferReport;
import io.dataflow.monitor.DataflowMonitor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import io.dataflow.reconfig.ReconfigurationException;
import io.dataflow.reconfig.RequestException;
import io.dataflow.reconfig.RequestDecoder;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.RejectPolicy;
import io.dataflow.reconfig.ReconfigurationAckSink;
import io.dataflow.reconfig.IoFactory;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.CutoverObserver;
import io.dataflow.reconfig.CutoverStep;

/**
 * The control path (docs/architecture/reconfiguration.md): decodes a request, plans it
 * resource-free, then applies the plan in a fixed order with no rollback and acknowledges it last.
 * Candidate ticks (admitted after the request) are evaluated only after the acknowledgement was
 * delivered, because this runs on the owner thread between two ingress items.
 *
 * <table>
 *   <caption>Application order</caption>
 *   <tr><td>1</td><td>rebind the input session</td></tr>
 *   <tr><td>2</td><td>flush pending engine rows</td></tr>
 *   <tr><td>3</td><td>rebind the output session</td></tr>
 *   <tr><td>4</td><td>apply the monitor plan</td></tr>
 *   <tr><td>5</td><td>commit both session revisions</td></tr>
 *   <tr><td>6</td><td>rebuild the engine's row layouts</td></tr>
 *   <tr><td>7</td><td>deliver the acknowledgement</td></tr>
 * </table>
 *
 * <p>Thread-safety: owner thread only.
 */
public final class ReconfigurationController implements ControlHandler {
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(ReconfigurationController.class);
  }

  private final InputPipelineSession input;
  private final OutputPipelineSession output;
  private final ReconfigurationPlanner planner;
  private final IoFactory factory;
  private final ReconfigurationAckSink acks;
  private final RejectPolicy rejectPolicy;
  private final CutoverObserver observer;
  private final Consumer<ContextTransferReport> transferReports;
  private final DataflowMonitor.Options monitorOptions;
  private final Map<String, IoSpec> sourceSpecs = new HashMap<>();
  private final Map<String, IoSpec> destinationSpecs = new HashMap<>();
  private Map<String, String> inputOwners = new LinkedHashMap<>();
  private Map<String, String> outputOwners = new LinkedHashMap<>();
  // The cutover being applied (owner thread): the step under way and the steps completed.
  private CutoverStep current;
  private final List<CutoverStep> applied = new ArrayList<>();

  public ReconfigurationController(InputPipelineSession input, OutputPipelineSession output,
      ReconfigurationPlanner planner, IoFactory factory, ReconfigurationAckSink acks,
      RejectPolicy rejectPolicy, CutoverObserver observer,
      Consumer<ContextTransferReport> transferReports, DataflowMonitor.Options monitorOptions, Map<String, String> inputOwners,
      Map<String, String> outputOwners) {
    this.input = input;
    this.output = output;
    this.planner = planner;
    this.factory = factory;
    this.acks = acks;
    this.rejectPolicy = rejectPolicy;
    this.observer = observer;
    this.transferReports = transferReports;
    this.monitorOptions = monitorOptions;
    this.inputOwners.putAll(inputOwners);
    this.outputOwners.putAll(outputOwners);
  }

  @Override
  public void onControl(ControlRequest request, RuntimeContext runtime) throws Exception {
    DirectDataflowEngine engine = runtime.engine();
    DataflowMonitor active = (DataflowMonitor) engine.monitor();
    ReconfigurationPlanner.Result planned;
    try {
      ReconfigurationRequest decoded = decode(request);
      planned = planner.plan(decoded, new ReconfigurationPlanner.Active(active.program(),
          active.failure() != null, input.owners(), Map.copyOf(sourceSpecs),
          Map.copyOf(inputOwners), output.routing(), Map.copyOf(destinationSpecs),
          Map.copyOf(outputOwners), output.taps()));
    } catch (RequestException | ReconfigurationException e) {
      reject(request, e, active, runtime);
      return;
    }
    apply(planned, active, runtime);
  }

  private static ReconfigurationRequest decode(ControlRequest request) {
    if (request instanceof ReconfigurationRequest r) {
      return r;
    }
    if (request instanceof EncodedControlRequest e) {
      return RequestDecoder.decode(e.json(), e.origin().toString());
    }
    throw new RequestException("unsupported control item: " + request.describe(), null);
  }

  private void reject(ControlRequest request, RuntimeException e, DataflowMonitor active,
      RuntimeContext runtime) throws Exception {
    if (rejectPolicy == RejectPolicy.END_RUN) {
      throw e;
    }
    log().warn("rejected {}: {}", request.describe(), e.getMessage());
    try {
      acks.deliver(new ReconfigurationAck(false, active.revision(),
          runtime.interfaceRevision(), false, false, null, active.nextTick(),
          e.getMessage(), originOf(request)));
    } catch (Exception undelivered) {
      // Nothing was applied, but the requester cannot be told: the run ends all the same.
      throw new CutoverFailedException(originOf(request), List.of(), undelivered);
    }
  }

  /** Where a request came from, as its acknowledgement names it (accepted or not). */
  private static String originOf(ControlRequest request) {
    if (request instanceof ReconfigurationRequest r) {
      return r.origin();
    }
    if (request instanceof EncodedControlRequest e) {
      return e.origin().toString();
    }
    return request.describe();
  }

  private void apply(ReconfigurationPlanner.Result planned, DataflowMonitor active,
      RuntimeContext runtime) throws Exception {
    RuntimeReconfigurationPlan plan = planned.plan();
    DirectDataflowEngine engine = runtime.engine();
    applied.clear();
    current = null;
    try {
      begin(CutoverStep.REBIND_INPUT);
      evaluateUnderTheOldConfiguration(plan.input(), runtime);
      rebindInput(plan.input(), plan.candidate());
      inputOwners = new LinkedHashMap<>(planned.inputOwners());

      begin(CutoverStep.FLUSH_ENGINE);
      engine.flush();

      begin(CutoverStep.REBIND_OUTPUT);
      rebindOutput(plan.output());
      outputOwners = new LinkedHashMap<>(planned.outputOwners());

      begin(CutoverStep.APPLY_MONITOR);
      DataflowMonitor.Transition t = applyMonitor(plan, active);
      engine.replaceMonitor(t.monitor());
      transferReports.accept(t.report());

      begin(CutoverStep.COMMIT_REVISIONS);
      input.commitRevision(plan.input().interfaceChanged());
      output.commitRevision(plan.output().interfaceChanged());
      if (plan.interfaceChanged()) {
        runtime.setInterfaceRevision(runtime.interfaceRevision() + 1);
      }

      begin(CutoverStep.REBUILD_LAYOUTS);
      engine.rebuildLayouts();

      begin(CutoverStep.ACKNOWLEDGE);
      acks.deliver(new ReconfigurationAck(true, t.monitor().revision(),
          runtime.interfaceRevision(), plan.monitorChanged(), plan.interfaceChanged(),
          plan.monitor().kind(), t.monitor().nextTick(), null,
          plan.request().origin()));
    } catch (ComponentException e) {
      throw e; // the old monitor failed a tick of the boundary: a tick's failure, not the cutover's
    } catch (Exception e) {
      throw new CutoverFailedException(plan.request().origin(), applied, e);
    }
  }

  /** Starts a step: the previous one is complete. */
  private void begin(CutoverStep step) throws Exception {
    if (current != null) {
      applied.add(current);
    }
    current = step;
    observer.beforeStep(step);
  }


  /**
   * The local boundary at the barrier: sources that are removed, replaced or whose streams change
   * stop (removed ones are closed first, so they deliver nothing more), and what they had already
   * admitted behind the barrier is evaluated now by the old monitor under the old bindings, its
   * output flushed, before anything is rebound.
   */
  private void evaluateUnderTheOldConfiguration(InputPipelineReconfigurationPlan p,
      RuntimeContext runtime) throws Exception {
    Map<String, Set<String>> before = input.owners();
    Set<String> boundary = new java.util.LinkedHashSet<>(p.removed());
    for (String name : p.unchanged()) {
      if (!java.util.Objects.equals(before.get(name), p.owners().get(name))) {
        boundary.add(name);
      }
    }
    for (String name : p.removed()) {
      input.stop(name);
    }
    runtime.evaluateAdmitted(boundary);
  }

  private void rebindInput(InputPipelineReconfigurationPlan p, DataflowProgram candidate)
      throws Exception {
    for (String name : p.removed()) {
      input.detach(name);
      sourceSpecs.remove(name);
    }
    for (Map.Entry<String, IoSpec> e : p.added().entrySet()) {
      input.attach(new InputPipelineSession.Binding(factory.createSource(e.getKey(),
          e.getValue(), candidate), p.owners().get(e.getKey())));
      sourceSpecs.put(e.getKey(), e.getValue());
    }
    for (String name : p.unchanged()) {
      input.bind(name, p.owners().get(name));
    }
  }

  private void rebindOutput(OutputPipelineReconfigurationPlan p) throws Exception {
    Map<String, Set<String>> before = output.routing();
    for (String name : p.unchanged()) {
      if (!java.util.Objects.equals(before.get(name), p.routing().get(name))) {
        output.flush(name); // its interface changes: rows so far go out first
      }
    }
    for (String name : p.removed()) {
      output.removeDestination(name);
      destinationSpecs.remove(name);
    }
    for (Map.Entry<String, IoSpec> e : p.added().entrySet()) {
      output.addDestination(new OutputPipelineSession.Destination(e.getKey(),
          factory.createDestination(e.getKey(), e.getValue()), p.routing().get(e.getKey()),
          null));
      destinationSpecs.put(e.getKey(), e.getValue());
    }
    for (String name : p.unchanged()) {
      output.bind(name, p.routing().get(name));
    }
  }

  private DataflowMonitor.Transition applyMonitor(RuntimeReconfigurationPlan plan,
      DataflowMonitor active) {
    MonitorReconfigurationPlan m = plan.monitor();
    if (m instanceof MonitorReconfigurationPlan.RetainExact) {
      return DataflowMonitor.retainExact(active, plan.candidate(), monitorOptions);
    }
    if (m instanceof MonitorReconfigurationPlan.Transfer tr) {
      return DataflowMonitor.transfer(active, plan.candidate(), tr.mapping(), monitorOptions);
    }
    return DataflowMonitor.coldStart(active, plan.candidate(), monitorOptions);
  }
}
