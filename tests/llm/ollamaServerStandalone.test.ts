import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OllamaServerScriptError, optionsFromArgs } from "../doubles/index.js";

let child: ChildProcess | undefined;
let dir: string | undefined;

afterEach(async () => {
  child?.kill();
  child = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

function waitForUrl(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    process.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    process.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

describe("ollamaServer standalone", () => {
  it("prints `listening <url>` and answers from a script file, non-streaming too", async () => {
    dir = await mkdtemp(join(tmpdir(), "evalgate-ollama-"));
    const script = join(dir, "answers.json");
    await writeFile(script, JSON.stringify({ models: ["tiny:1b"], answers: ["one", "two"] }));
    child = spawn(
      "node_modules/.bin/tsx",
      ["tests/doubles/ollamaServer.ts", "--port", "0", "--script", script],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const url = await waitForUrl(child);

    const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((model) => model.name)).toEqual(["tiny:1b"]);

    const chat = (stream: boolean) =>
      fetch(`${url}/api/chat`, {
        method: "POST",
        body: JSON.stringify({
          model: "tiny:1b",
          stream,
          messages: [{ role: "user", content: "hi" }],
        }),
      });
    const first = (await (await chat(false)).json()) as Record<string, unknown>;
    expect(first).toMatchObject({
      model: "tiny:1b",
      message: { role: "assistant", content: "one" },
      done: true,
      done_reason: "stop",
      prompt_eval_count: 1,
      eval_count: 1,
    });
    const lines = (await (await chat(true)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(0)).toMatchObject({ message: { content: "two" }, done: false });
    expect(lines.at(-1)).toMatchObject({ done: true, message: { content: "" } });
    const third = (await (await chat(false)).json()) as { message: { content: string } };
    expect(third.message.content).toBe("two");
  });

  it("rejects a bad command line with the location of the problem", async () => {
    await expect(optionsFromArgs(["--port", "x"])).rejects.toBeInstanceOf(OllamaServerScriptError);
    await expect(optionsFromArgs(["--script"])).rejects.toThrow(
      /command line: --script needs a value/,
    );
  });
});
