/**
 * The real command with a pool of model servers: `node bin/evalgate.mjs evaluate …` with
 * OLLAMA_BASE_URL listing a server that is down and one that answers, and with an
 * OpenAI-compatible server named in --model. Counted, not clocked: what each server received.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closedPort,
  FUNDABLE_CONTENT,
  IFB_CATALOG,
  ifbJudge,
  JUDGE_MODEL,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "../cli/helpers.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { type OpenAiServer, startOpenAiServer } from "../doubles/openaiServer.js";

const temp = tempFolderForFile();
let ollama: OllamaServer;
let vllm: OpenAiServer;
let content: string;

beforeAll(async () => {
  ollama = await startOllamaServer({ models: [JUDGE_MODEL], responder: ifbJudge });
  vllm = await startOpenAiServer({
    models: [JUDGE_MODEL],
    responder: (request) => ifbJudge({ model: request.model, messages: request.messages }),
  });
  content = await writeText(temp.dir, "plan.md", FUNDABLE_CONTENT);
});

afterAll(async () => {
  await ollama?.close();
  await vllm?.close();
});

describe.concurrent("evalgate evaluate over a pool", { timeout: SPAWN_TIMEOUT }, () => {
  it("OLLAMA_BASE_URL lists a server that is down and one that is up: judged, nothing lost", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const run = await runEvalgate(
      [
        "evaluate",
        content,
        "--catalog",
        IFB_CATALOG,
        "--model",
        `ollama:${JUDGE_MODEL}`,
        "--format",
        "json",
      ],
      { env: { OLLAMA_BASE_URL: `${down},${ollama.url}` } },
    );
    expect(run.stderr).not.toContain("could not answer");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; notEvaluated: string[] };
    expect(result.notEvaluated).toEqual([]);
    expect(result.status).toBe("FUNDABLE");
    expect(ollama.chatRequests().length).toBeGreaterThanOrEqual(3);
  });

  it("no server of the list is ready: the check before the run names each server's problem", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", IFB_CATALOG, "--model", "ollama:not-pulled:1b"],
      { env: { OLLAMA_BASE_URL: `${down},${ollama.url}` } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /Ollama not reachable at http:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED/,
    );
    expect(run.stderr).toContain(`model "not-pulled:1b" is not pulled at ${ollama.url}`);
    expect(run.stderr).toContain("[MODEL_NOT_READY]");
  });

  it.each([
    ["--model", "openai-compatible:m@http://a:8000/v1,,http://b:8000/v1", /none empty/],
    ["--judge", "ollama:m@http://u:Pa55word@a:11434#slots=0", /slots=<1–256>/],
  ])(
    "a server list after @ in %s that cannot be used is refused naming that flag",
    async (flag, spec, why) => {
      // A panel needs two judges: the second is usable, the first names the list that is not.
      const second = flag === "--judge" ? ["--judge", "ollama:other"] : [];
      const run = await runEvalgate([
        "evaluate",
        content,
        "--catalog",
        IFB_CATALOG,
        flag,
        spec,
        ...second,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^evalgate: ${flag}: `));
      expect(run.stderr).toMatch(why);
      expect(run.stderr).toContain("[MODEL_OPTIONS_INVALID]");
      expect(run.stderr).not.toContain("Pa55word");
    },
  );

  it("--model openai-compatible:<model>@<url> judges on that server", async () => {
    const run = await runEvalgate(
      [
        "evaluate",
        content,
        "--catalog",
        IFB_CATALOG,
        "--model",
        `openai-compatible:${JUDGE_MODEL}@${vllm.url}`,
        "--format",
        "json",
      ],
      { env: {} },
    );
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; model: string };
    expect(result.status).toBe("FUNDABLE");
    expect(result.model).toBe(`openai-compatible:${JUDGE_MODEL}`);
    expect(vllm.chatRequests().length).toBeGreaterThanOrEqual(3);
  });
});
