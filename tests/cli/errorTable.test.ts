/**
 * The command line's error table, through the real program run in-process: a command that throws a
 * representative error of each folder ends with that error's exit code and one line on stderr.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { FunctionResolutionError } from "../../src/checks/errors.js";
import { createCliContext } from "../../src/cli/context.js";
import { InputFileError } from "../../src/cli/errors.js";
import { commandError, ERROR_MESSAGES } from "../../src/cli/errorTable.js";
import { COMMANDS, runCli } from "../../src/cli/main.js";
import { documentsUnreadable } from "../../src/context/errors.js";
import { CatalogError } from "../../src/criteria/errors.js";
import { unknownThread } from "../../src/desk/errors.js";
import { EvaluationError, EvaluationModelError } from "../../src/engine/errors.js";
import { EvalgateError } from "../../src/errors.js";
import { GraphError } from "../../src/graph/errors.js";
import { promptInvalid } from "../../src/judge/errors.js";
import { ModelAbortedError, ModelSpecError, ModelTimeoutError } from "../../src/llm/errors.js";
import { CheckpointerError, threadNotFound } from "../../src/orchestrator/errors.js";
import { UnknownLevelError } from "../../src/scoring/errors.js";
import { reviewerExists } from "../../src/store/errors.js";
import { ToonError } from "../../src/toon/errors.js";
import { tempFolderForFile } from "./helpers.js";

const folder = tempFolderForFile();

/** Runs `evalgate <args>` in this process, with `fail` as an extra command that throws `error`. */
async function run(args: readonly string[], error?: unknown) {
  let stdout = "";
  let stderr = "";
  const context = createCliContext({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: folder.dir,
  });
  const failing = (program: Command) => {
    program.command("fail").action(() => {
      throw error;
    });
  };
  const code = await runCli(args, context, [...COMMANDS, failing]);
  return { code, stdout, stderr };
}

const openai = { provider: "openai", model: "gpt-x" };

/** Every code docs/errors.md has a row for. */
const DOCUMENTED_CODES = [
  ...readFileSync(join(import.meta.dirname, "..", "..", "docs", "errors.md"), "utf8").matchAll(
    /^\| `([A-Z][A-Z0-9_]*)` \|/gm,
  ),
].map((match) => match[1] ?? "");

describe("the error table", () => {
  it("words only codes docs/errors.md lists", () => {
    const worded = Object.keys(ERROR_MESSAGES);
    expect(worded.filter((code) => !DOCUMENTED_CODES.includes(code))).toEqual([]);
  });

  it.each(DOCUMENTED_CODES)(
    "%s: the line speaks of the product, never of an error class",
    (code) => {
      const { message } = commandError(new EvalgateError(code, "what went wrong"), folder.dir);
      expect(message).not.toMatch(/^[A-Z][A-Za-z]*Error:/);
      expect(message).not.toContain("EvalgateError");
      expect(message).toMatch(new RegExp(`\\[${code}\\]$`));
    },
  );

  it("says a bug is unexpected, by its message and not its class, on one redacted line", async () => {
    const bug = new TypeError("reading postgres://ana:hunter2@db/x\n    at somewhere");
    const result = await run(["fail"], bug);
    expect(result.stderr).toBe(
      "evalgate: unexpected error: reading postgres://***@db/x at somewhere\n",
    );
    const thrownText = await run(["fail"], "a thrown string");
    expect(thrownText.stderr).toBe("evalgate: unexpected error: a thrown string\n");
  });

  it.each([
    [
      "checks",
      new FunctionResolutionError("scoring:count", ["registry: not registered"]),
      2,
      "Cannot resolve function 'scoring:count'. Tried: registry: not registered [FUNCTION_UNRESOLVED]",
    ],
    [
      "cli",
      new InputFileError("content file", "a.md", "no such file"),
      2,
      "content file a.md: no such file [INPUT_FILE_UNREADABLE]",
    ],
    [
      "context",
      documentsUnreadable("docs", "no such folder"),
      2,
      "Cannot load documents from docs: no such folder [DOCUMENTS_UNREADABLE]",
    ],
    [
      "engine",
      new EvaluationError("input", "no content to evaluate"),
      2,
      "cannot evaluate: no content to evaluate [EVALUATION_FAILED]",
    ],
    [
      "engine (the model failed)",
      new EvaluationModelError(new ModelTimeoutError(5, openai), ["c1"]),
      2,
      "the judge model could not answer (1 criteria): openai:gpt-x did not answer within 5 ms [EVALUATION_MODEL_FAILED]",
    ],
    [
      "graph",
      new GraphError("RFP_UNREADABLE", "cannot read the RFP at rfp.md"),
      2,
      "cannot read the RFP at rfp.md [RFP_UNREADABLE]",
    ],
    [
      "judge",
      promptInvalid("no rubric items", { criterionId: "c2" }),
      2,
      "cannot build the judge prompt: criterion 'c2': no rubric items [JUDGE_PROMPT_INVALID]",
    ],
    [
      "llm",
      new ModelSpecError("x", "no model name"),
      2,
      'model spec "x": no model name [MODEL_SPEC_INVALID]',
    ],
    [
      "llm (cancelled)",
      new ModelAbortedError(openai),
      2,
      "cancelled: the evaluation was interrupted before it finished [MODEL_CALL_CANCELLED]",
    ],
    [
      "orchestrator",
      threadNotFound("t1"),
      2,
      'thread "t1": no such thread in the checkpointer [CHECKPOINT_NOT_FOUND]',
    ],
    [
      "orchestrator (checkpointer)",
      new CheckpointerError("reviews.sqlite", "locked"),
      2,
      "checkpointer reviews.sqlite: locked [CHECKPOINTER_UNAVAILABLE]",
    ],
    [
      "scoring",
      new UnknownLevelError("x", ["a", "b"], { criterionId: "c1" }),
      2,
      "cannot score: criterion 'c1': unknown level 'x'; expected one of 'a', 'b' [LEVEL_UNKNOWN]",
    ],
    [
      "toon",
      new ToonError("expected 2 rows", { line: 4, source: "t.toon" }),
      2,
      "invalid TOON: t.toon:4: expected 2 rows [TOON_INVALID]",
    ],
    ["orchestrator (review desk)", unknownThread("t9"), 2, "no thread t9 [THREAD_NOT_FOUND]"],
    ["store", reviewerExists("ana"), 2, 'a reviewer named "ana" exists already [REVIEWER_EXISTS]'],
    ["not an evalgate error", new TypeError("boom"), 2, "unexpected error: boom"],
  ] as const)("%s: exit %#", async (_folder, error, exit, message) => {
    const result = await run(["fail"], error);
    expect(result.stderr).toBe(`evalgate: ${message}\n`);
    expect(result.code).toBe(exit);
  });

  it("criteria: a catalog error exits 2 and names the file relative to the working folder", async () => {
    const error = new CatalogError("expected a number ≥ 0", {
      source: join(folder.dir, "criteria.toon"),
      line: 7,
      path: ["criteria", 1, "weight"],
    });
    const result = await run(["fail"], error);
    expect(result.stderr).toBe(
      "evalgate: cannot use the catalog: criteria.toon:7 ($.criteria[1].weight): expected a number ≥ 0 [CATALOG_INVALID]\n",
    );
    expect(result.code).toBe(2);
  });

  it("criteria, from a real command: validating a catalog that is not there exits 2", async () => {
    const result = await run(["catalog", "validate", "missing.toon"]);
    expect(result.stderr).toBe(
      "evalgate: cannot use the catalog: missing.toon: catalog file not found [CATALOG_NOT_FOUND]\n",
    );
    expect(result.code).toBe(2);
  });
});
