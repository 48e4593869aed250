/** What `evaluate` refuses to read as content: a FIFO, binary or NUL-bearing text, and more than the budget. */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IFB_CATALOG, runEvalgate, SPAWN_TIMEOUT, tempFolderForFile } from "./helpers.js";

const temp = tempFolderForFile();

/** No model is reachable: anything that gets past reading the content fails on the model check. */
const env = { OLLAMA_BASE_URL: "http://127.0.0.1:1" };

describe.concurrent("evaluate's content file", { timeout: SPAWN_TIMEOUT }, () => {
  it("a FIFO is refused before it is opened (it would block)", async () => {
    const fifo = join(temp.dir, "pipe.md");
    execFileSync("mkfifo", [fifo]);
    const run = await runEvalgate(["evaluate", fifo, "--catalog", IFB_CATALOG], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not a regular file");
  });

  it("text with NUL bytes, and binary data, are refused", async () => {
    const nul = join(temp.dir, "nul.md");
    await writeFile(nul, "A proposal\u0000with a NUL byte.");
    const binary = join(temp.dir, "image.md");
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0xc3, 0x28]));
    for (const [file, reason] of [
      [nul, "NUL"],
      [binary, "not UTF-8 text"],
    ] as const) {
      const run = await runEvalgate(["evaluate", file, "--catalog", IFB_CATALOG], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(reason);
    }
  });

  it("content beyond the budget is refused with both sizes named; the budget is an option", async () => {
    const big = join(temp.dir, "big.md");
    await writeFile(big, "Flood resilience in Calder Bay. ".repeat(320_000));
    const run = await runEvalgate(["evaluate", big, "--catalog", IFB_CATALOG], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/10,240,000 bytes.*budget of [\d,]+ bytes/);
    const small = await runEvalgate(
      ["evaluate", big, "--catalog", IFB_CATALOG, "--max-content-bytes", "20000000"],
      { env },
    );
    expect(small.stderr).not.toContain("budget");
  });
});
