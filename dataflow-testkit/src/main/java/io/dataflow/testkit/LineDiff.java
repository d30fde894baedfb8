package io.dataflow.testkit;

import java.util.ArrayList;
import java.util.List;

/** A small line diff (longest common subsequence) for readable golden-trace failures. */
public final class LineDiff {
  private LineDiff() {}

  /**
   * Renders the differences between two texts: lines only in {@code expected} start with
   * {@code -}, lines only in {@code actual} with {@code +}, common lines with two spaces.
   */
  public static String render(String expected, String actual) {
    List<String> a = lines(expected);
    List<String> b = lines(actual);
    int[][] lcs = new int[a.size() + 1][b.size() + 1];
    for (int i = a.size() - 1; i >= 0; i--) {
      for (int j = b.size() - 1; j >= 0; j--) {
        lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1
            : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    StringBuilder sb = new StringBuilder();
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      if (i < a.size() && j < b.size() && a.get(i).equals(b.get(j))) {
        sb.append("  ").append(a.get(i)).append('\n');
        i++;
        j++;
      } else if (j < b.size() && (i == a.size() || lcs[i][j + 1] >= lcs[i + 1][j])) {
        sb.append("+ ").append(b.get(j++)).append('\n');
      } else {
        sb.append("- ").append(a.get(i++)).append('\n');
      }
    }
    return sb.toString();
  }

  private static List<String> lines(String text) {
    List<String> out = new ArrayList<>(List.of(text.split("\n", -1)));
    if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
      out.remove(out.size() - 1);
    }
    return out;
  }
}
