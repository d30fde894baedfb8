package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Java examples of docs/testing.md are the compiled ones of TestingGuideTest, those of
 * docs/pipeline.md (but the dependency block) those of PipelineGuideTest.
 */
class DocsSnippetsTest {
  @Test
  void everyJavaBlockOfTheTestingGuideIsCompiledAndRun() throws IOException {
    assertSnippets("docs/testing.md", "TestingGuideTest.java");
  }

  @Test
  void everyJavaBlockOfThePipelinePageIsCompiledAndRun() throws IOException {
    assertSnippets("docs/pipeline.md", "PipelineGuideTest.java");
  }

  private static void assertSnippets(String doc, String test) throws IOException {
    String page = Files.readString(ProjectFiles.root().resolve(doc));
    String source = Files.readString(ProjectFiles.root()
        .resolve("dataflow-testkit/src/test/java/io/dataflow/testkit/" + test));
    List<String> snippets = new ArrayList<>();
    Matcher m = Pattern.compile("// doc:[a-z-]+\\n(.*?)\\n\\s*// end", Pattern.DOTALL)
        .matcher(source);
    while (m.find()) {
      snippets.add(normalize(m.group(1)));
    }
    Matcher blocks = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(page);
    int count = 0;
    while (blocks.find()) {
      count++;
      assertThat(snippets).as("%s block %d is a compiled snippet", doc, count)
          .contains(normalize(blocks.group(1)));
    }
    assertThat(count).as("java blocks in %s", doc).isEqualTo(snippets.size());
  }

  private static String normalize(String code) {
    StringBuilder sb = new StringBuilder();
    for (String line : code.split("\n")) {
      if (!line.isBlank()) {
        sb.append(line.strip()).append('\n');
      }
    }
    return sb.toString();
  }
}
