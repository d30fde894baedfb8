package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A row layout names the slots of a row in declaration order. */
class RowLayoutTest {

  @Test
  void mapsNamesToSlotsInOrder() {
    RowLayout layout = RowLayout.of("z", "a", "m");
    assertThat(layout.width()).isEqualTo(3);
    assertThat(layout.names()).containsExactly("z", "a", "m");
    assertThat(layout.name(1)).isEqualTo("a");
    assertThat(layout.slotOf("m")).isEqualTo(2);
    assertThat(layout.slotOf("missing")).isEqualTo(-1);
  }

  @Test
  void rejectsADuplicateName() {
    assertThatThrownBy(() -> RowLayout.of("x", "y", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("duplicate name in row layout: x");
  }

  @Test
  void isNotChangedByLaterChangesToItsSource() {
    String[] names = {"a", "b"};
    RowLayout fromArray = RowLayout.of(names);
    names[0] = "changed";
    List<String> list = new ArrayList<>(List.of("a", "b"));
    RowLayout fromList = RowLayout.of(list);
    list.set(0, "changed");
    assertThat(fromArray.names()).containsExactly("a", "b");
    assertThat(fromList.names()).containsExactly("a", "b");
    assertThatThrownBy(() -> fromArray.names().set(0, "x"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void equalsALayoutWithTheSameNamesInTheSameOrder() {
    assertThat(RowLayout.of("a", "b")).isEqualTo(RowLayout.of(List.of("a", "b")));
    assertThat(RowLayout.of("a", "b")).hasSameHashCodeAs(RowLayout.of("a", "b"));
    assertThat(RowLayout.of("a", "b")).isNotEqualTo(RowLayout.of("b", "a"));
    assertThat(RowLayout.of("a", "b")).hasToString("[a, b]");
  }

  @Test
  void makesRowsOfItsWidthFullOfNoVal() {
    Row row = RowLayout.of("a", "b").newRow();
    assertThat(row.width()).isEqualTo(2);
    assertThat(row).hasToString("Row[NoVal, NoVal]");
    assertThat(RowLayout.of().newRow().width()).isZero();
  }
}
