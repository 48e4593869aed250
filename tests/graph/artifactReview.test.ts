/**
 * A graph stage that reviews a node's output against registered rubrics: write → review (the
 * artifact review node) → approved ends, needs_revision goes back to the writer.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import {
  type ArtifactReviewOutcome,
  createArtifactReviewNode,
  routeOnArtifactReview,
} from "../../src/graph/artifactReviewNode.js";
import { ArtifactRegistry } from "../../src/rubrics/artifactRegistry.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { checkQuestionCount, QUIZ_RUBRIC } from "../rubrics/fixtures.js";

const QuizState = Annotation.Root({
  quiz: Annotation<{ questions: string[] }>,
  drafts: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  artifactReview: Annotation<ArtifactReviewOutcome | undefined>,
});

describe("the artifact review node in a graph", () => {
  it("sends a short quiz back to its writer and ends once the quiz is approved", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "evalgate-graph-artifacts-")), "c.sqlite");
    const rubricRegistry = await RubricRegistry.open({ sqlitePath: path });
    await rubricRegistry.register(QUIZ_RUBRIC);
    const artifacts = await ArtifactRegistry.open({
      sqlitePath: path,
      rubricRegistry,
      rubricExecutor: new RubricExecutor({
        functionRegistry: new FunctionRegistry().register(
          "scoring:check_question_count",
          checkQuestionCount,
        ),
      }),
      typeDefinitions: { quiz: { id: "quiz", rubrics: ["quiz_quality"] } },
    });
    try {
      // The writer adds two questions per draft: 2, 4, then 6 (enough).
      const write = (state: typeof QuizState.State) => {
        const questions = state.quiz?.questions ?? [];
        const more = [questions.length + 1, questions.length + 2].map((n) => `Q${n}`);
        return { quiz: { questions: [...questions, ...more] }, drafts: 1 };
      };
      const graph = new StateGraph(QuizState)
        .addNode("write", write)
        .addNode(
          "review",
          createArtifactReviewNode({ artifacts, artifactType: "quiz", contentField: "quiz" }),
        )
        .addEdge(START, "write")
        .addEdge("write", "review")
        .addConditionalEdges("review", routeOnArtifactReview(END, "write"), [END, "write"])
        .compile({ checkpointer: new MemorySaver() });

      const final = await graph.invoke({}, { configurable: { thread_id: "quiz-1" } });
      expect(final.drafts).toBe(3);
      expect(final.quiz.questions).toHaveLength(6);
      expect(final.artifactReview?.status).toBe("approved");
      expect(final.artifactReview?.evaluations.map((e) => [e.rubric_id, e.rubric_version])).toEqual(
        [["quiz_quality", "1.0.0"]],
      );
      // Every draft was stored and reviewed: the last one approved with its evaluation attached.
      const stored = await artifacts.require(final.artifactReview?.artifactId ?? "");
      expect(stored).toMatchObject({ status: "approved", content: final.quiz });
    } finally {
      await artifacts.close();
      await rubricRegistry.close();
    }
  });
});
