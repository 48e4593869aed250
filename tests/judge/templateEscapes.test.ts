/**
 * A corpus of escape attempts against decode prompt templates
 * (tests/fixtures/templates/escapes.json): the nunjucks escapes a probe found, Jinja2 and
 * polyglot SSTI payloads, LiquidJS advisories, Liquid's file tags, drops, prototype reads and
 * writes, and templates built to exhaust time and memory. Each attempt, had it run as code, would
 * write a marker file or read a secret from the environment (the payloads are shown to do so when
 * run as JavaScript). None may: each is refused when its rubric is loaded (a PROMPT_TEMPLATE_INVALID error /
 * CatalogError naming the line), fails when rendered (a PROMPT_TEMPLATE_INVALID error naming the line), or
 * renders text without the secret — through the template engine and through a whole rubric
 * evaluation with a scripted judge.
 */

import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { isCatalogError } from "../../src/criteria/errors.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { compileDecodeTemplate, renderDecodeTemplate } from "../../src/judge/decodePrompt.js";
import { isDecodeTemplateError, type JudgeError } from "../../src/judge/errors.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { quizRubric } from "../engine/quizRubric.js";

const CorpusSchema = z.object({
  payloads: z.record(z.string(), z.string()),
  attempts: z.array(
    z.object({
      name: z.string(),
      family: z.string(),
      expect: z.enum(["refused when loaded", "error when rendered", "renders"]),
      template: z.string(),
      output: z.string().optional(),
      /**
       * What a rubric holding it does, when not what `expect` says: a template that reaches a
       * bound of a render on the sample render of the catalog check is refused when loaded.
       */
      inRubric: z.literal("refused when loaded").optional(),
    }),
  ),
});
const corpus = CorpusSchema.parse(
  JSON.parse(readFileSync(new URL("../fixtures/templates/escapes.json", import.meta.url), "utf8")),
);

const SECRET_NAME = "EVALGATE_TEMPLATE_ESCAPE_SECRET";
const secret = `secret-${randomUUID()}`;
let folder = "";
let marker = "";
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "evalgate-escapes-"));
  marker = join(folder, "marker");
  process.env[SECRET_NAME] = secret;
});
afterAll(async () => {
  delete process.env[SECRET_NAME];
  await rm(folder, { recursive: true, force: true });
});
afterEach(() => {
  expect(existsSync(marker), "an attempt wrote the marker file").toBe(false);
});

/** The text with its payload placeholders (and the marker path) filled in. */
function filled(text: string): string {
  let out = text;
  for (const [placeholder, code] of Object.entries(corpus.payloads)) {
    out = out.split(placeholder).join(code);
  }
  return out.split("__MARKER__").join(marker);
}

/** The values a decode prompt sees, as the rubric executor gives them. */
const SCOPE = {
  questions: ["q1", "q2", "q3"],
  levels: [{ id: "poor" }, { id: "good" }],
  content: "CONTENT",
  criterion: { id: "pedagogy" },
};

function renderFailure(template: string): JudgeError {
  try {
    renderDecodeTemplate(template, SCOPE, { criterionId: "pedagogy", source: "decode_prompt" });
  } catch (error) {
    if (isDecodeTemplateError(error)) return error;
    throw error;
  }
  throw new Error("expected the template to fail when rendered");
}

function rubric(decodePrompt: string) {
  return quizRubric({ type: "llm_decode", decode_prompt: decodePrompt }, "escape_probe");
}

describe("the payloads", () => {
  it("write the marker file and read the secret when run as JavaScript (the checks below can see an escape)", async () => {
    const write = corpus.payloads["@WRITE@"] ?? "";
    const read = corpus.payloads["@READ@"] ?? "";
    expect(new Function(filled(write))()).toBe("written");
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    expect(new Function(read)()).toBe(secret);
  });
});

describe.each(corpus.attempts)("$family: $name", (attempt) => {
  const template = () => filled(attempt.template);

  it(`${attempt.expect}, without running code or reaching the secret`, () => {
    if (attempt.expect === "refused when loaded") {
      let refusal: unknown;
      try {
        compileDecodeTemplate(template(), { criterionId: "pedagogy", source: "decode_prompt" });
      } catch (error) {
        refusal = error;
      }
      expect(isDecodeTemplateError(refusal)).toBe(true);
      if (!isDecodeTemplateError(refusal)) return;
      expect(refusal.location.line).toBeGreaterThanOrEqual(1);
      expect(refusal.message).toMatch(/^criterion 'pedagogy' › decode_prompt › line \d+/);
      expect(refusal.message).not.toContain(secret);
      return;
    }
    compileDecodeTemplate(template());
    if (attempt.expect === "error when rendered") {
      const failure = renderFailure(template());
      expect(failure.location.line).toBeGreaterThanOrEqual(1);
      expect(failure.message).not.toContain(secret);
      return;
    }
    const text = renderDecodeTemplate(template(), SCOPE);
    expect(text).not.toContain(secret);
    if (attempt.output !== undefined) expect(text).toBe(filled(attempt.output));
  });

  it("in a rubric: refused at load, or judged without the secret ever reaching the judge", async () => {
    const llm = new ScriptedChatModel({ responder: () => '{"reasoning":"ok","level_id":"good"}' });
    const outcome = await new RubricExecutor({ llm })
      .evaluate(rubric(template()), { questions: ["Why does ice float?", "Why?", "How?"] })
      .then(
        (evaluation) => ({ evaluation }),
        (error: unknown) => ({ error }),
      );
    const sent = llm.calls.flatMap((call) => call.messages.map((m) => m.content)).join("\n");
    expect(sent).not.toContain(secret);
    if ((attempt.inRubric ?? attempt.expect) === "refused when loaded") {
      expect("error" in outcome && isCatalogError(outcome.error)).toBe(true);
      if (!("error" in outcome) || !isCatalogError(outcome.error)) return;
      expect(outcome.error.detail).toContain("its decode prompt cannot be used");
      if (attempt.inRubric === undefined) expect(outcome.error.detail).toMatch(/template line \d+/);
      else expect(outcome.error.detail).toContain("on a sample render");
      expect(llm.calls).toHaveLength(0);
      return;
    }
    expect("evaluation" in outcome).toBe(true);
    if (!("evaluation" in outcome)) return;
    const result = outcome.evaluation.criterion_results[0];
    expect(JSON.stringify(outcome.evaluation)).not.toContain(secret);
    if (attempt.expect === "error when rendered") {
      expect(result?.level_id).toBe("unable_to_evaluate");
      expect(result?.notes).toMatch(/line \d+/);
    } else {
      expect(result?.level_id).toBe("good");
    }
  });
});

describe("after the corpus", () => {
  it("left Object.prototype as it was", () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("the same refusals come from the catalog loader, with the file's line and the template's", () => {
    const refused = corpus.attempts.filter((a) => a.expect === "refused when loaded");
    for (const attempt of refused) {
      const text = JSON.stringify(rubric(filled(attempt.template)), null, 2);
      let failure: unknown;
      try {
        parseCatalog(text, { format: "json", source: "escape.json" });
      } catch (error) {
        failure = error;
      }
      expect(isCatalogError(failure), attempt.name).toBe(true);
      if (!isCatalogError(failure)) continue;
      expect(failure.path).toEqual(["criteria", 0, "scoring_method", "decode_prompt"]);
      expect(failure.line).toBe(
        text.split("\n").findIndex((l) => l.includes('"decode_prompt"')) + 1,
      );
    }
  });
});
