package io.dataflow.core.snapshot;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list over an array that nobody else holds: what the decoders build their arrays
 * into, so that the snapshot records keep it as it is ({@link #own}) where {@code List.of} and
 * {@code List.copyOf} would copy it (decoding {@code cutover_100} took about 13% less CPU;
 * docs/decisions.md, "A monitor's snapshot is written straight into its bytes"). It behaves as
 * {@code List.of}'s lists do: unmodifiable, no null elements ({@code contains(null)} throws),
 * equal to any list with the same elements.
 */
final class OwnedList<E> extends AbstractList<E> implements RandomAccess {
  private final Object[] elements;

  /** Takes {@code elements}, which must not contain null and which nobody writes again. */
  private OwnedList(Object[] elements) {
    this.elements = elements;
  }

  /**
   * The list over {@code elements}; the caller gives the array up (it never writes it again
   * or lets it out). An empty array is {@code List.of()}.
   */
  static <E> List<E> of(E[] elements) {
    for (E e : elements) {
      Objects.requireNonNull(e);
    }
    return elements.length == 0 ? List.of() : new OwnedList<>(elements);
  }

  /** {@code list} itself when it is immutable already (ours or empty), else its copy. */
  static <E> List<E> own(List<E> list) {
    return list instanceof OwnedList<E> ? list : List.copyOf(list);
  }

  @Override
  @SuppressWarnings("unchecked")
  public E get(int index) {
    return (E) elements[Objects.checkIndex(index, elements.length)];
  }

  @Override
  public int size() {
    return elements.length;
  }

  @Override
  public int indexOf(Object o) {
    Objects.requireNonNull(o); // as List.of's lists
    for (int i = 0; i < elements.length; i++) {
      if (o.equals(elements[i])) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public int lastIndexOf(Object o) {
    Objects.requireNonNull(o);
    for (int i = elements.length - 1; i >= 0; i--) {
      if (o.equals(elements[i])) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean contains(Object o) {
    return indexOf(o) >= 0;
  }
}
