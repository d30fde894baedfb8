package io.dataflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunRequestTest {
  private RunRequest.Builder valid() {
    return RunRequest.builder().specification("s.dsrv", "in x\nout z\nz = x")
        .input(RunInput.trace("t", "0: x = 1\n")).idempotencyKey("k");
  }

  @Test
  void anOptionNamedLikeACredentialIsRefusedBecauseRequestsAreRecorded() {
    for (String name : new String[] {"password", "dbPassword", "api_key", "authToken",
        "client-secret", "credentials"}) {
      assertThatThrownBy(() -> valid().option(name, "x").build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + name + "'").hasMessageContaining("credential");
    }
    assertThat(valid().option("batch", "2024-06-01").build().options())
        .containsEntry("batch", "2024-06-01");
  }

  @Test
  void theKeyMustBeGivenAndNotBlankOrTooLong() {
    assertThatThrownBy(() -> RunRequest.builder().specification("s", "out z\nz = 1")
        .input(RunInput.trace("t", "")).build()).hasMessageContaining("idempotencyKey");
    assertThatThrownBy(() -> valid().idempotencyKey(" ").build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> valid().idempotencyKey("k".repeat(257)).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void faultPointsAreFoundByTheirNames() {
    for (FaultPoint p : FaultPoint.values()) {
      assertThat(FaultPoint.byId(p.id())).contains(p);
    }
    assertThat(FaultPoint.byId("before-dispatch")).contains(FaultPoint.BEFORE_DISPATCH);
    assertThat(FaultPoint.byId("nowhere")).isEmpty();
  }
}
