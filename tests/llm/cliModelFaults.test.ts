/**
 * The real command against a model server that misbehaves: `node bin/evalgate.mjs evaluate …`
 * with OLLAMA_BASE_URL pointing at the Ollama-protocol stand-in. What the user sees on stderr
 * stays small, names the problem as a model failure (exit 2, after the report of every criterion
 * as a judge error), and neither stderr nor the report holds the body or a credential.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  IFB_CATALOG,
  JUDGE_MODEL,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "../cli/helpers.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";

const PASSWORD = "s3cret-proxy-pass";
const BASIC = Buffer.from(`reviewer:${PASSWORD}`).toString("base64");
const TOKEN = "sk-proj-Zq8mXv2Lw9Tr4Yp1Ks7Nd3Hb";
/** Far more than any message needs, far less than one copy of the 1 MB body. */
const STDERR_LIMIT = 4_096;
/** The report names each criterion's error in several places: still far from the body's size. */
const REPORT_LIMIT = 16_384;

const temp = tempFolderForFile();
let flooding: OllamaServer;
let refusing: OllamaServer;
let content: string;

beforeAll(async () => {
  // Lists the model, then answers every chat 200 with 1 MB that is not JSON.
  flooding = await startOllamaServer({
    models: [JUDGE_MODEL],
    behaviour: { rawBody: "<!doctype html>".padEnd(1_000_000, "w"), contentType: "text/html" },
  });
  // Lists the model, then answers every chat 401 quoting the request's headers and a token.
  refusing = await startOllamaServer({
    models: [JUDGE_MODEL],
    behaviour: {
      status: 401,
      errorMessage: `token ${TOKEN} is not valid here; request headers follow`,
      echoHeaders: true,
    },
  });
  content = await writeText(
    temp.dir,
    "plan.md",
    "Hafen Sensorik GmbH in Hamburg builds fibre-optic quay wall monitoring for ports.",
  );
});

afterAll(async () => {
  await flooding?.close();
  await refusing?.close();
});

function evaluate(baseUrl: string) {
  return runEvalgate(
    ["evaluate", content, "--catalog", IFB_CATALOG, "--model", `ollama:${JUDGE_MODEL}`],
    { env: { OLLAMA_BASE_URL: baseUrl } },
  );
}

describe.concurrent("evalgate evaluate with a misbehaving model server", {
  timeout: SPAWN_TIMEOUT,
}, () => {
  it("a 1 MB answer that is not JSON: a short model error on stderr, the body not printed", async () => {
    const run = await evaluate(flooding.url);
    expect(run.code).toBe(2);
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(STDERR_LIMIT);
    expect(run.stderr).toContain("the judge model could not answer");
    expect(run.stderr).toContain("is not an Ollama stream");
    expect(run.stderr).not.toContain("invalid json");
    expect(run.stderr).not.toMatch(/w{600}/);
    // The report: each criterion a judge error naming the fault, the body not quoted.
    expect(run.stdout.match(/^ {2}- c\d: .*is not an Ollama stream/gm)).toHaveLength(3);
    expect(run.stdout).not.toMatch(/w{600}/);
    expect(Buffer.byteLength(run.stdout)).toBeLessThan(REPORT_LIMIT);
    // Every criterion was asked (and an unusable answer asked once more).
    expect(flooding.chatRequests().length).toBeGreaterThanOrEqual(3);
  });

  it("a 401 echoing the Authorization header: the refusal named, no credential printed", async () => {
    const url = `http://reviewer:${PASSWORD}@127.0.0.1:${refusing.port}`;
    const run = await evaluate(url);
    expect(run.code).toBe(2);
    expect(Buffer.byteLength(run.stderr)).toBeLessThan(STDERR_LIMIT);
    expect(run.stderr).toContain("HTTP 401");
    expect(run.stderr).toContain(`http://***@127.0.0.1:${refusing.port}`);
    for (const secret of [PASSWORD, BASIC, TOKEN, "Zq8mXv2Lw9"]) {
      expect(run.stderr).not.toContain(secret);
      expect(run.stdout).not.toContain(secret);
    }
    // The credentials did go to the server, as a header on every request.
    const sent = refusing.requests.filter((r) => r.headers.authorization === `Basic ${BASIC}`);
    expect(sent.map((r) => r.path)).toContain("/api/tags");
    expect(sent.map((r) => r.path)).toContain("/api/chat");
  });

  it("a server that refuses the URL's credentials: told to mend them, not to start Ollama", async () => {
    const guarded = await startOllamaServer({
      models: [JUDGE_MODEL],
      requireAuthorization: `Basic ${Buffer.from("reviewer:right").toString("base64")}`,
    });
    try {
      const run = await evaluate(`http://reviewer:${PASSWORD}@127.0.0.1:${guarded.port}`);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `evalgate: Ollama at http://***@127.0.0.1:${guarded.port} refused access (GET /api/tags answered HTTP 401)`,
      );
      expect(run.stderr).not.toContain("ollama serve");
      expect(run.stderr).not.toContain(PASSWORD);
      expect(guarded.chatRequests()).toHaveLength(0);
    } finally {
      await guarded.close();
    }
  });
});
