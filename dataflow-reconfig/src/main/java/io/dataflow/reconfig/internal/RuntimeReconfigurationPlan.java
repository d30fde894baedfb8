package io.dataflow.reconfig.internal;

import io.dataflow.monitor.DataflowProgram;
import io.dataflow.reconfig.ReconfigurationRequest;

/**
 * Everything one accepted request will change, assembled before anything is opened or
 * mutated.
 *
 * @param request the request
 * @param candidate the compiled replacement
 * @param input the input plan
 * @param output the output plan
 * @param monitor the monitor plan
 * @param monitorChanged the definition key changed
 * @param interfaceChanged the input or output interface changed
 */
public record RuntimeReconfigurationPlan(ReconfigurationRequest request,
    DataflowProgram candidate, InputPipelineReconfigurationPlan input,
    OutputPipelineReconfigurationPlan output, MonitorReconfigurationPlan monitor,
    boolean monitorChanged, boolean interfaceChanged) {}
