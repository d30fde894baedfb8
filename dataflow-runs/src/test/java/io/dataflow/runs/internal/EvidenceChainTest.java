package io.dataflow.runs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EvidenceChainTest {
  private final EvidenceChain chain = new EvidenceChain("d", "r", "s", "o", 5);

  @Test
  void theSameEvidenceVerifies() {
    assertThat(chain.mismatch(new EvidenceChain("d", "r", "s", "o", 5))).isNull();
    assertThat(chain.head()).matches("[0-9a-f]{64}");
  }

  @Test
  void everyPieceOfEvidenceIsInTheHeadAndNamedWhenItDiffers() {
    assertThat(chain.mismatch(new EvidenceChain("D", "r", "s", "o", 5)))
        .startsWith("the definition hash differs");
    assertThat(chain.mismatch(new EvidenceChain("d", "R", "s", "o", 5)))
        .startsWith("the request hash differs");
    assertThat(chain.mismatch(new EvidenceChain("d", "r", "S", "o", 5)))
        .startsWith("the source fingerprint differs");
    assertThat(chain.mismatch(new EvidenceChain("d", "r", "s", "O", 5)))
        .startsWith("the output digest differs");
    assertThat(chain.mismatch(new EvidenceChain("d", "r", "s", "o", 6)))
        .startsWith("the row count differs");
  }

  @Test
  void piecesDoNotRunIntoEachOther() {
    assertThat(new EvidenceChain("ab", "c", "s", "o", 1).head())
        .isNotEqualTo(new EvidenceChain("a", "bc", "s", "o", 1).head());
  }
}
