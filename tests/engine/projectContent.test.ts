/**
 * The pipeline's project input (`projectFolder`): the deterministic criteria read the documents'
 * text; content given with source documents (a content file with --documents) keeps checking the
 * content only.
 */
import { describe, expect, it } from "vitest";
import { EvaluationError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { projectText } from "../../src/engine/projectContent.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, checkAnswer, judgeOf } from "./helpers.js";

const DOCUMENTS = [
  { name: "b-plan.md", text: "Pilot quay in the Port of Hamburg." },
  { name: "a-team.md", text: "The sensor team." },
];

const PORT = {
  id: "port",
  title: "Port named",
  description: "Names the port",
  weight: 1,
  method: { kind: "function" as const, name: "contains", args: "Port of Hamburg" },
};

const catalog = (criteria: unknown[]) =>
  catalogOf({ id: "p", name: "P", version: "1", criteria } as Parameters<typeof catalogOf>[0]);

describe("a project's text for its deterministic criteria", () => {
  it("is each document under its name line, in name order, one blank line between", () => {
    expect(projectText(DOCUMENTS)).toBe(
      "==> a-team.md <==\nThe sensor team.\n\n==> b-plan.md <==\nPilot quay in the Port of Hamburg.",
    );
  });

  it("is what a function check reads when the input is a project", async () => {
    const result = await evaluateContent({
      content: "",
      documents: DOCUMENTS,
      projectFolder: "projects/quay",
      catalog: catalog([PORT]),
      model: null,
    });
    expect(result.criteria[0]).toMatchObject({ id: "port", score: 1, met: true });
  });

  it("is not read for content with source documents: the content alone is checked", async () => {
    const result = await evaluateContent({
      content: "A sensor network for a harbour.",
      documents: DOCUMENTS,
      catalog: catalog([PORT]),
      model: null,
    });
    // The port is named only in a source document: the content does not name it.
    expect(result.criteria[0]).toMatchObject({ id: "port", score: 0, met: false });
  });

  it("refuses content given beside a project, and a project without documents", async () => {
    for (const given of [
      { content: "Own text.", documents: DOCUMENTS },
      { content: "", documents: [] },
    ]) {
      const error = await evaluateContent({
        ...given,
        projectFolder: "projects/quay",
        catalog: catalog([PORT]),
        model: null,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EvaluationError);
      expect((error as Error).message).toContain("projects/quay");
    }
  });

  it("is not built for a catalog only the judge reads: its passages are retrieved, not bounded", async () => {
    const model = new ScriptedChatModel({ responder: () => checkAnswer("pass", "Hamburg named.") });
    const result = await evaluateContent({
      content: "",
      documents: DOCUMENTS,
      projectFolder: "projects/quay",
      catalog: catalog([{ ...PORT, method: { kind: "check" } }]),
      model: judgeOf(model),
      injectionGuard: false,
      // Smaller than the joined text, which no criterion reads.
      maxContentBytes: 10,
    });
    expect(result.criteria[0]).toMatchObject({ id: "port", native: "pass" });
  });
});
