/**
 * What a command prints is safe for the terminal: a judge's reasoning, hits and misses (which the
 * content can steer) and a catalog's name and criterion titles holding OSC 0 (window title), OSC
 * 52 (clipboard), CSI 2J (clear screen), a carriage return (rewrites the progress line) or a C1
 * control reach stdout and stderr as visible escapes — in the table, TOON and Markdown reports,
 * the progress lines and `catalog validate` — and a JSON report stays valid JSON with the text
 * unchanged. The judge is the Ollama-protocol stand-in; the command runs as users run it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalSafe } from "../../src/untrusted/terminalText.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  JUDGE_MODEL,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";
import {
  answers,
  evalgate,
  MODEL,
  RFP,
  serverEnv,
  threadIdOf,
  workFolder,
} from "./reviewHarness.js";

const ESC = "\u001b";
const BEL = "\u0007";
const OSC_TITLE = `${ESC}]0;pwned-title${BEL}`;
const OSC_CLIPBOARD = `${ESC}]52;c;ZWNobyBwd25lZA==${BEL}`;
const CLEAR_SCREEN = `${ESC}[2J`;
const CSI_C1 = "\u009b2J";
const CARRIAGE = "\rdone: passed (overall 1.00)";

const REASONING = `The plan is sound.${OSC_TITLE}${CLEAR_SCREEN}${CARRIAGE}`;
const HIT = `names its figures${OSC_CLIPBOARD}`;
const MISS = `no risk plan${CSI_C1}\u007f`;

/** Any character a terminal would act on: C0 but tab and newline, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const temp = tempFolderForFile();
let server: OllamaServer;
let catalog: string;
let content: string;

beforeAll(async () => {
  server = await startOllamaServer({
    models: [JUDGE_MODEL],
    responder: () =>
      JSON.stringify({ reasoning: REASONING, score: 0.8, hits: [HIT], misses: [MISS] }),
  });
  catalog = await writeText(
    temp.dir,
    "hostile.json",
    JSON.stringify({
      id: "hostile",
      name: `Harbour review${OSC_TITLE}`,
      version: "1.0.0",
      criteria: [
        {
          id: "plan",
          name: `Plan${CARRIAGE}${CLEAR_SCREEN}`,
          description: "How sound is the plan?",
          weight: 1,
        },
      ],
    }),
  );
  content = await writeText(temp.dir, "plan.md", "Hafen Sensorik plans quay sensors.\n");
});
afterAll(async () => {
  await server?.close();
});

function expectNoRawControls(text: string, what: string) {
  expect(RAW_CONTROL.exec(text)?.[0], what).toBeUndefined();
}

describe("terminalSafe", () => {
  it("replaces C0 (not newline, tab), DEL and C1 with visible escapes; JSON keeps its meaning", () => {
    expect(terminalSafe(`a${OSC_TITLE}b\tc\nd${CARRIAGE}`)).toBe(
      "a\\x1b]0;pwned-title\\x07b\tc\nd\\rdone: passed (overall 1.00)",
    );
    expect(terminalSafe(`${CLEAR_SCREEN}${CSI_C1}\u007f\u0000`)).toBe(
      "\\x1b[2J\\u009b2J\\u007f\\x00",
    );
    const json = JSON.stringify({ reasoning: REASONING, miss: MISS });
    expect(JSON.parse(terminalSafe(json))).toEqual({ reasoning: REASONING, miss: MISS });
  });
});

describe.concurrent("the commands print no control character", { timeout: SPAWN_TIMEOUT }, () => {
  it.each(["table", "toon", "md"])(
    "evaluate --format %s, and its progress lines",
    async (format) => {
      const run = await runEvalgate(
        ["evaluate", content, "--catalog", catalog, "--format", format],
        {
          env: judgeEnv(server.url),
        },
      );
      expect([0, 1]).toContain(run.code);
      expectNoRawControls(run.stdout, "stdout");
      expectNoRawControls(run.stderr, "stderr");
      // The text is there, its controls made visible (Markdown escapes the brackets too; the
      // TOON encoder writes its own escapes).
      expect(run.stdout).toMatch(/\\(x1b|u001b)\\?\]0;pwned-title\\(x07|u0007)/);
      expect(run.stderr).toContain("Plan\\rdone: passed (overall 1.00)\\x1b[2J");
    },
  );

  it("evaluate --format json: valid JSON, the judge's text exactly as it answered", async () => {
    const run = await runEvalgate(["evaluate", content, "--catalog", catalog, "--format", "json"], {
      env: judgeEnv(server.url),
    });
    expectNoRawControls(run.stdout, "stdout");
    const result = JSON.parse(run.stdout) as {
      criteria: Array<{ reasoning: string; hits: string[]; misses: string[] }>;
    };
    expect(result.criteria[0]?.reasoning).toBe(REASONING);
    expect(result.criteria[0]?.hits).toEqual([HIT]);
    expect(result.criteria[0]?.misses).toEqual([MISS]);
  });

  it("catalog validate: the catalog's name and titles", async () => {
    const run = await runEvalgate(["catalog", "validate", catalog]);
    expect(run.code).toBe(0);
    expectNoRawControls(run.stdout, "stdout");
    expectNoRawControls(run.stderr, "stderr");
    expect(run.stdout).toContain("Harbour review\\x1b]0;pwned-title\\x07");
  });
});

describe("run, reviews and review print the judge's text made visible", () => {
  it("run shows the review, reviews lists it, review approve shows the next one", async () => {
    const plain = ollamaProposalResponder(0.85);
    const hostile = await startOllamaServer({
      models: [MODEL],
      // Every judge answer's reasoning and hits carry the escapes; the writer answers as usual.
      responder: async (request, n) => {
        const answer = await plain(request, n);
        if (isWriterPrompt(request.messages) || !answer.startsWith("{")) return answer;
        const parsed = JSON.parse(answer) as Record<string, unknown>;
        const hits = Array.isArray(parsed.hits) ? { hits: [HIT] } : {};
        return JSON.stringify({ ...parsed, reasoning: REASONING, ...hits });
      },
    });
    try {
      const cwd = await workFolder();
      await writeFile(join(cwd.dir, "rfp.md"), RFP);
      const env = serverEnv(hostile);
      const run = await evalgate(["run", "rfp.md"], { cwd: cwd.dir, env, stdin: answers("q") });
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);
      const listed = await evalgate(["reviews"], { cwd: cwd.dir, env });
      const approved = await evalgate(["review", threadId, "approve"], { cwd: cwd.dir, env });
      expect(approved.code).toBe(0);
      for (const [what, out] of [
        ["run", run],
        ["reviews", listed],
        ["review", approved],
      ] as const) {
        expectNoRawControls(out.stdout, `${what} stdout`);
        expectNoRawControls(out.stderr, `${what} stderr`);
      }
      const shown = /names its figures\\(x1b|u001b)\]52;c;ZWNobyBwd25lZA==\\(x07|u0007)/;
      expect(run.stdout).toMatch(shown);
      expect(approved.stdout).toMatch(shown);
      await cwd.remove();
    } finally {
      await hostile.close();
    }
  }, 120_000);
});
