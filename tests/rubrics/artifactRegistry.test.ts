import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FunctionRegistry } from "../../src/checks/registry.js";
import {
  RubricExecutor,
  type RubricExecutorOptions,
} from "../../src/engine/apis/rubricExecutor.js";
import { isEvalgateError } from "../../src/errors.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ArtifactRegistry } from "../../src/rubrics/artifactRegistry.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import {
  type OllamaServer,
  type RecordedMessage,
  ScriptedChatModel,
  startOllamaServer,
} from "../doubles/index.js";
import { checkQuestionCount, FIVE_QUESTIONS, QUIZ_PEDAGOGY, QUIZ_RUBRIC } from "./fixtures.js";

const SUMMARY = "The questions ask for explanations. Keep it up.";
const isSummary = (system: string) => system.includes("structured result of an evaluation");

/** The quiz example's set-up: the rubric registered, the function registered, the quiz type. */
async function setUp(executorOptions: RubricExecutorOptions = {}) {
  const path = join(mkdtempSync(join(tmpdir(), "evalgate-artifacts-")), "checkpoints.sqlite");
  const rubricRegistry = await RubricRegistry.open({ sqlitePath: path });
  await rubricRegistry.register(QUIZ_RUBRIC);
  await rubricRegistry.register(QUIZ_PEDAGOGY);
  const functionRegistry = new FunctionRegistry().register(
    "scoring:check_question_count",
    checkQuestionCount,
  );
  const rubricExecutor = new RubricExecutor({ functionRegistry, ...executorOptions });
  const artifacts = await ArtifactRegistry.open({
    sqlitePath: path,
    rubricRegistry,
    rubricExecutor,
    typeDefinitions: { quiz: { id: "quiz", rubrics: ["quiz_quality"] } },
  });
  const close = async () => {
    await artifacts.close();
    await rubricRegistry.close();
  };
  return { path, rubricRegistry, rubricExecutor, artifacts, close };
}

let server: OllamaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("ArtifactRegistry.submitForReview", () => {
  it("runs the end-to-end quiz example: approved, the evaluation attached and kept", async () => {
    const { path, rubricRegistry, rubricExecutor, artifacts, close } = await setUp();
    try {
      const artifact = await artifacts.create({
        type: "quiz",
        name: "Biology Quiz",
        content: FIVE_QUESTIONS,
      });
      expect(artifact).toMatchObject({ status: "draft", rubricIds: ["quiz_quality"] });
      const evaluations = await artifacts.submitForReview(artifact.id);
      expect(evaluations).toHaveLength(1);
      expect(evaluations[0]).toMatchObject({
        rubric_id: "quiz_quality",
        rubric_version: "1.0.0",
        target_id: artifact.id,
        target_type: "quiz",
        weighted_score: 1,
        passed: true,
      });
      const updated = await artifacts.require(artifact.id);
      expect(updated.status).toBe("approved");
      expect(updated.evaluations).toEqual(evaluations);

      // Kept in the database: another registry on the same file reads the same review.
      const again = await ArtifactRegistry.open({
        sqlitePath: path,
        rubricRegistry,
        rubricExecutor,
      });
      try {
        expect(await again.require(artifact.id)).toEqual(updated);
      } finally {
        await again.close();
      }
    } finally {
      await close();
    }
  });

  it("sets needs_revision when an evaluation fails, each review round kept apart", async () => {
    const { artifacts, close } = await setUp();
    try {
      const artifact = await artifacts.create({
        type: "quiz",
        name: "Short Quiz",
        content: { questions: ["Q1", "Q2", "Q3"] },
      });
      const [evaluation] = await artifacts.submitForReview(artifact);
      expect(evaluation).toMatchObject({ passed: false, weighted_score: 0 });
      expect(evaluation?.criterion_results[0]?.level_id).toBe("fail");
      expect((await artifacts.require(artifact.id)).status).toBe("needs_revision");
      // A second review (e.g. against a newer rubric version) is a new round; the latest shows.
      const second = await artifacts.submitForReview(artifact.id);
      expect((await artifacts.require(artifact.id)).evaluations.map((e) => e.id)).toEqual(
        second.map((e) => e.id),
      );
    } finally {
      await close();
    }
  });

  it("records the rubric version each evaluation used, after the rubric changed", async () => {
    const { rubricRegistry, artifacts, close } = await setUp();
    try {
      const artifact = await artifacts.create({ type: "quiz", name: "Q", content: FIVE_QUESTIONS });
      await artifacts.submitForReview(artifact.id);
      await rubricRegistry.register({ ...QUIZ_RUBRIC, name: "Quiz Quality (stricter wording)" });
      const [later] = await artifacts.submitForReview(artifact.id);
      expect([later?.rubric_id, later?.rubric_version]).toEqual(["quiz_quality", "1.0.1"]);
    } finally {
      await close();
    }
  });

  it("refuses an unknown rubric or an artifact with none before its status changes", async () => {
    const { artifacts, close } = await setUp();
    try {
      const artifact = await artifacts.create({ type: "quiz", name: "Q", content: FIVE_QUESTIONS });
      const unknown = await artifacts
        .submitForReview(artifact.id, ["no_such_rubric"])
        .catch((e: unknown) => e);
      expect(isEvalgateError(unknown, "RUBRIC_NOT_FOUND")).toBe(true);
      expect((await artifacts.require(artifact.id)).status).toBe("draft");
      const bare = await artifacts.create({ type: "essay", name: "E", content: "text" });
      const none = await artifacts.submitForReview(bare.id).catch((e: unknown) => e);
      expect(isEvalgateError(none, "ARTIFACT_REVIEW_FAILED")).toBe(true);
      const missing = await artifacts.submitForReview("art_missing").catch((e: unknown) => e);
      expect(isEvalgateError(missing, "ARTIFACT_NOT_FOUND")).toBe(true);
    } finally {
      await close();
    }
  });

  it("reviews against an llm_decode rubric with the scripted model", async () => {
    const answer = JSON.stringify({ reasoning: "They ask why and how.", level_id: "good" });
    const llm = new ScriptedChatModel({
      responder: (messages: RecordedMessage[]) =>
        isSummary(messages.find((m) => m.role === "system")?.content ?? "") ? SUMMARY : answer,
    });
    const { artifacts, close } = await setUp({ llm });
    try {
      const artifact = await artifacts.create({ type: "quiz", name: "Q", content: FIVE_QUESTIONS });
      const evaluations = await artifacts.submitForReview(artifact.id, [
        "quiz_quality",
        "quiz_pedagogy",
      ]);
      expect(evaluations.map((e) => [e.rubric_id, e.passed, e.weighted_score])).toEqual([
        ["quiz_quality", true, 1],
        ["quiz_pedagogy", true, 0.8],
      ]);
      expect(evaluations[1]?.criterion_results[0]?.llm_invocation?.model).toContain("scripted");
      expect((await artifacts.require(artifact.id)).status).toBe("approved");
    } finally {
      await close();
    }
  });

  it("reviews through the Ollama protocol; a model that fails leaves it review_failed", async () => {
    server = await startOllamaServer({
      responder: (request) =>
        isSummary(request.messages.find((m) => m.role === "system")?.content ?? "")
          ? SUMMARY
          : JSON.stringify({ reasoning: "Recall only.", level_id: "poor" }),
    });
    const llm = createChatModel("ollama:qwen2.5:7b-instruct", {
      baseUrl: server.url,
      env: {},
      maxRetries: 0,
      timeoutMs: 5_000,
    });
    const { artifacts, close } = await setUp({ llm });
    try {
      const artifact = await artifacts.create({
        type: "quiz",
        name: "Q",
        content: FIVE_QUESTIONS,
        rubricIds: ["quiz_pedagogy"],
      });
      const [evaluation] = await artifacts.submitForReview(artifact.id);
      expect(evaluation?.criterion_results[0]).toMatchObject({ level_id: "poor", score: 0 });
      expect((await artifacts.require(artifact.id)).status).toBe("needs_revision");
      expect(server.chatRequests().length).toBeGreaterThan(0);

      server.setBehaviour({ status: 500, errorMessage: "model crashed" });
      const failed = await artifacts.submitForReview(artifact.id).catch((e: unknown) => e);
      expect(isEvalgateError(failed, "ARTIFACT_REVIEW_FAILED")).toBe(true);
      const after = await artifacts.require(artifact.id);
      expect(after.status).toBe("review_failed");
      // The earlier review's evaluations stay the latest kept: a failed review adds none.
      expect(after.evaluations.map((e) => e.id)).toEqual([evaluation?.id]);
    } finally {
      await close();
    }
  });
});
