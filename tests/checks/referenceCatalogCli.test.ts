/**
 * `evalgate catalog validate` (the compiled command) on catalogs that use the reference-based
 * point functions: fitting args are valid, args that do not fit are refused naming the function,
 * what it expects, and where in the file.
 */
import { describe, expect, it } from "vitest";
import { runEvalgate, SPAWN_TIMEOUT, tempFolderForFile, writeText } from "../cli/helpers.js";

const temp = tempFolderForFile();

function pointsCatalog(points: unknown[]): string {
  return JSON.stringify({ id: "answers", points }, null, 2);
}

describe.concurrent("catalog validate and the reference-based point functions", {
  timeout: SPAWN_TIMEOUT,
}, () => {
  it("a catalog with fitting args is valid (exit 0)", async () => {
    const path = await writeText(
      temp.dir,
      "valid.json",
      pointsCatalog([
        "States the number of nurses trained.",
        ["rouge_l", { reference: "We train forty nurses by March.", min: 0.4 }],
        ["levenshtein_similarity", { reference: "GR-2025-17", ignoreCase: true }],
        { fn: "embedding_similarity", fnArgs: { min: 0.8 }, multiplier: 2 },
        ["not_rouge_l", "An unrelated answer."],
        ["rouge_l"],
      ]),
    );
    const run = await runEvalgate(["catalog", "validate", path]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("6 criteria (1 judged by the model, 5 deterministic)");
  });

  it("args that do not fit: the error names the function, what it expects and where (exit 1)", async () => {
    const path = await writeText(
      temp.dir,
      "invalid.json",
      pointsCatalog([
        "States the number of nurses trained.",
        ["rouge_l", { reference: "We train forty nurses.", min: 1.5 }],
      ]),
    );
    const run = await runEvalgate(["catalog", "validate", path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${path}: invalid catalog`);
    expect(run.stdout).toContain(
      `rouge_l: expected a reference text, { reference?, min? } (e.g. { "reference": "…", "min": 0.5 }), or nothing (the evaluation's reference), got an object`,
    );
    expect(run.stdout).toMatch(/\$\.points\[1\]/);
  });

  it("a reference without a word, and an embedding model that is not a name, are refused", async () => {
    const [words, model] = await Promise.all([
      writeText(temp.dir, "nowords.json", pointsCatalog([["rouge_l", "— … —"]])),
      writeText(
        temp.dir,
        "model.json",
        pointsCatalog([["embedding_similarity", { reference: "x", model: "  " }]]),
      ),
    ]);
    const [wordsRun, modelRun] = await Promise.all([
      runEvalgate(["catalog", "validate", words]),
      runEvalgate(["catalog", "validate", model]),
    ]);
    expect(wordsRun.code).toBe(1);
    expect(wordsRun.stdout).toContain(
      "the reference has no word (letters or digits) to compare with",
    );
    expect(modelRun.code).toBe(1);
    expect(modelRun.stdout).toContain(
      "embedding_similarity: expected a reference text, { reference?, min?, model? }, or nothing",
    );
  });
});
