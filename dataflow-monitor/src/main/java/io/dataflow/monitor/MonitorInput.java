package io.dataflow.monitor;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.monitor.eval.Slot;
import io.dataflow.monitor.eval.TypeCheck;

/**
 * One input stream of a {@link DataflowMonitor}, set directly for the next
 * {@link DataflowMonitor#step()}: the typed alternative to filling an input {@code Row}.
 *
 * <p>A value set here is staged until the next step takes it; an input that was not set since
 * the previous step is NoVal in that step (a tick lists only its present inputs, as in a trace).
 * Setting twice before a step keeps the second value. The value is checked against the input's
 * declared type when it is set, so a wrong value throws {@link IllegalArgumentException} here
 * (naming the tick it was meant for, the input and both types), leaves the staged value as it
 * was and the monitor healthy (an input {@code Row} with the same value would fail the monitor
 * at {@code evaluate}).
 *
 * <p>A handle belongs to the monitor that made it ({@link DataflowMonitor#input(String)}); after
 * a reconfiguration, take the new monitor's handles. {@link DataflowMonitor#evaluate} reads its
 * input row and ignores what is staged here.
 *
 * <p>Thread-safety: owner thread only, like its monitor.
 */
public final class MonitorInput {
  private final DataflowMonitor monitor;
  private final String name;
  private final TypeCheck.Compiled check;
  private final boolean acceptsInt;
  private final boolean acceptsFloat;
  private final boolean acceptsBool;
  private final boolean acceptsStr;
  /** The staged value: the monitor's step (interpreted or generated) takes it from here. */
  private final Slot staged;

  MonitorInput(DataflowMonitor monitor, String name, TypeCheck.Compiled check, Slot staged) {
    this.monitor = monitor;
    this.name = name;
    this.check = check;
    this.staged = staged;
    this.acceptsInt = accepts(check, Kind.INT);
    this.acceptsFloat = accepts(check, Kind.FLOAT);
    this.acceptsBool = accepts(check, Kind.BOOL);
    this.acceptsStr = accepts(check, Kind.STR);
  }

  private static boolean accepts(TypeCheck.Compiled check, byte kind) {
    if (check == null) {
      return true;
    }
    Slot probe = new Slot();
    probe.setRaw(kind, 0, kind == Kind.STR ? "" : null);
    return check.matches(probe);
  }

  /** The input's name in the specification. */
  public String name() {
    return name;
  }

  /**
   * Stages an Int.
   *
   * @throws IllegalArgumentException unless the input is declared Int or untyped
   */
  public void setInt(long value) {
    if (!acceptsInt) {
      throw refused("Int");
    }
    stage(Kind.INT, value);
  }

  /**
   * Stages a Float.
   *
   * @throws IllegalArgumentException unless the input is declared Float or untyped
   */
  public void setFloat(double value) {
    if (!acceptsFloat) {
      throw refused("Float");
    }
    stage(Kind.FLOAT, Double.doubleToRawLongBits(value));
  }

  /**
   * Stages a Bool.
   *
   * @throws IllegalArgumentException unless the input is declared Bool or untyped
   */
  public void setBool(boolean value) {
    if (!acceptsBool) {
      throw refused("Bool");
    }
    stage(Kind.BOOL, value ? 1 : 0);
  }

  /**
   * Stages a Str.
   *
   * @throws IllegalArgumentException unless the input is declared Str, Expr or untyped
   * @throws NullPointerException when {@code value} is null
   */
  public void setStr(String value) {
    java.util.Objects.requireNonNull(value, "value");
    if (!acceptsStr) {
      throw refused("Str");
    }
    staged.setRaw(Kind.STR, 0, value); // stores the reference only when it changes
  }

  /**
   * Stages any value ({@link Value#NOVAL} makes the input absent, like {@link #setNoVal()}).
   *
   * @throws IllegalArgumentException when the value does not match the declared type
   * @throws NullPointerException when {@code value} is null
   */
  public void set(Value value) {
    java.util.Objects.requireNonNull(value, "value");
    if (check != null && !TypeCheck.matches(check.type, value)) {
      Slot refused = new Slot();
      refused.setValue(value);
      throw refused(TypeCheck.describe(refused));
    }
    staged.setRaw(value.kind(), Kind.bitsOf(value), Kind.refOf(value));
  }

  /** Makes the input absent in the next step (the default for an input not set). */
  public void setNoVal() {
    staged.setNoVal();
  }

  /** Whether a value is staged for the next step. */
  public boolean isStaged() {
    return staged.tag != Kind.NOVAL;
  }

  private void stage(byte kind, long payload) {
    staged.setRaw(kind, payload, null);
  }

  private IllegalArgumentException refused(String got) {
    return new IllegalArgumentException("tick " + monitor.nextTick() + ": input '" + name
        + "' is declared " + check + " but got a value of type " + got);
  }

  @Override
  public String toString() {
    return "MonitorInput[" + name + (check == null ? "" : ": " + check) + "]";
  }
}
