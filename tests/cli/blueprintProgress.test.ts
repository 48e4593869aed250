/**
 * `evalgate blueprint run`'s progress on stderr: in a pipe a header and one line per judged
 * prompt × model; on a terminal the pair being asked is redrawn in place and cleared before each
 * permanent line.
 */
import { describe, expect, it } from "vitest";
import { createBlueprintProgress } from "../../src/cli/progress.js";

const CLEAR = "\r\x1b[2K";

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, columns: 100, write: (text: string) => writes.push(text), writes };
}

function drive(out: ReturnType<typeof stream>) {
  const progress = createBlueprintProgress(out);
  progress.onProgress({ phase: "asking", promptId: "p1", model: "m", done: 0, total: 2 });
  progress.onProgress({
    phase: "judged",
    promptId: "p1",
    model: "m",
    done: 1,
    total: 2,
    coverage: 0.5,
  });
  progress.onProgress({ phase: "asking", promptId: "p2", model: "m", done: 1, total: 2 });
  progress.onProgress({
    phase: "judged",
    promptId: "p2",
    model: "m",
    done: 2,
    total: 2,
    coverage: null,
    error: "the model could not answer",
  });
  progress.finish();
}

describe("createBlueprintProgress", () => {
  it("writes a header and one line per judged pair in a pipe, nothing redrawn", () => {
    const out = stream(false);
    drive(out);
    expect(out.writes).toEqual([
      "running 2 answers (prompts × models), each judged\n",
      "[1/2] p1 × m: coverage 0.50\n",
      "[2/2] p2 × m: no coverage (the model could not answer)\n",
    ]);
  });

  it("redraws the pair being asked on a terminal and clears it before each permanent line", () => {
    const out = stream(true);
    drive(out);
    expect(out.writes).toEqual([
      "running 2 answers (prompts × models), each judged\n",
      `${CLEAR}[0/2] asking p1 × m…`,
      CLEAR,
      "[1/2] p1 × m: coverage 0.50\n",
      `${CLEAR}[1/2] asking p2 × m…`,
      CLEAR,
      "[2/2] p2 × m: no coverage (the model could not answer)\n",
    ]);
  });
});
