/**
 * Template escapes through the real command (node bin/evalgate.mjs): a rubric whose decode prompt
 * tries to write a file or reach code is called invalid by `catalog validate` (exit 1, naming the
 * criterion, the decode prompt and the template's line), refused by `rubrics register` (nothing
 * stored) and by `evaluate`; a decode prompt that reads the environment loads, and the judge
 * (the Ollama-protocol test server) never sees the secret. No attempt leaves the marker file.
 */

import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { quizRubric } from "../engine/quizRubric.js";
import {
  JUDGE_MODEL,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

const SECRET_NAME = "EVALGATE_TEMPLATE_ESCAPE_SECRET";
const secret = `secret-${randomUUID()}`;
const folder = tempFolderForFile();
let server: OllamaServer;
let marker = "";
let content = "";

function rubric(id: string, decodePrompt: string) {
  return JSON.stringify(
    quizRubric({ type: "llm_decode", decode_prompt: decodePrompt }, id),
    null,
    2,
  );
}

beforeAll(async () => {
  marker = join(folder.dir, "marker");
  server = await startOllamaServer({
    models: [JUDGE_MODEL],
    responder: () => JSON.stringify({ reasoning: "Asks why.", level_id: "good" }),
  });
  content = await writeText(
    folder.dir,
    "quiz.json",
    JSON.stringify({ questions: ["Why does ice float?", "What makes a day?"] }),
  );
});
afterAll(async () => {
  await server?.close();
});

/** The child's environment: the test server, and the secret an escape would try to read. */
function env(): Record<string, string> {
  return { ...judgeEnv(server.url), [SECRET_NAME]: secret };
}

const REFUSED = [
  {
    name: "the Function constructor through an array key, writing a file",
    prompt: () =>
      `Judge:\n{{ range[["constructor"]]("process.getBuiltinModule('fs').writeFileSync('${marker}','x');return 1")() }}`,
  },
  {
    name: "a macro's constructor reading the secret",
    prompt: () =>
      `Judge:\n{% macro m() %}x{% endmacro %}{{ m[["constructor"]]("return process.env.${SECRET_NAME}")() }}`,
  },
  { name: "an include of a file", prompt: () => 'Judge:\n{% include "/etc/passwd" %}' },
];

describe("a decode prompt that tries to escape", { timeout: SPAWN_TIMEOUT }, () => {
  it.each(REFUSED.map((each, i) => ({ ...each, i })))(
    "$name: invalid for catalog validate, refused by rubrics register and evaluate",
    async ({ prompt, i }) => {
      const file = await writeText(folder.dir, `escape-${i}.json`, rubric(`escape_${i}`, prompt()));
      const db = join(folder.dir, `escape-${i}.sqlite`);
      const [validated, registered, evaluated] = await Promise.all([
        runEvalgate(["catalog", "validate", file], { env: env() }),
        runEvalgate(["rubrics", "register", file, "--db", db], { env: env() }),
        runEvalgate(["evaluate", content, "--catalog", file], { env: env() }),
      ]);
      expect(validated.code).toBe(1);
      expect(validated.stdout).toContain('criterion "depth": its decode prompt cannot be used');
      expect(validated.stdout).toMatch(/\(template line 2, column \d+\)/);
      expect(validated.stdout).toContain("$.criteria[0].scoring_method.decode_prompt");
      expect(registered.code).toBe(2);
      expect(registered.stderr).toContain("its decode prompt cannot be used");
      const listed = await runEvalgate(["rubrics", "list", "--db", db]);
      expect(listed.stdout).not.toContain(`escape_${i}`);
      expect(evaluated.code).toBe(2);
      expect(evaluated.stderr).toContain("its decode prompt cannot be used");
      for (const run of [validated, registered, evaluated, listed]) {
        expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
      }
      expect(existsSync(marker)).toBe(false);
    },
  );

  it("a decode prompt reading process.env loads, and the judge never sees the secret", async () => {
    const prompt = `Judge:\n{{ process.env.${SECRET_NAME} }}{{ global.process.env.${SECRET_NAME} }}\n{% for q in questions %}- {{ q }}\n{% endfor %}`;
    const file = await writeText(folder.dir, "reads-env.json", rubric("reads_env", prompt));
    const validated = await runEvalgate(["catalog", "validate", file], { env: env() });
    expect(validated.code).toBe(0);
    const evaluated = await runEvalgate(
      ["evaluate", content, "--catalog", file, "--format", "json"],
      { env: env() },
    );
    expect(evaluated.code).toBe(0);
    const asked = server
      .chatRequests()
      .filter((r) => r.messages.some((m) => m.content.includes("- Why does ice float?")));
    expect(asked.length).toBeGreaterThan(0);
    expect(JSON.stringify(server.requests)).not.toContain(secret);
    expect(`${evaluated.stdout}${evaluated.stderr}`).not.toContain(secret);
  });
});
