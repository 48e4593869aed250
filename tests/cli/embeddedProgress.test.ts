/**
 * The embedded model's terminal progress: the download bar's line, and the tokens-per-second line
 * drawn while the model answers (into a stream object standing in for the terminal).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDownloadBar, downloadLine, showGenerationProgress } from "../../src/cli/progress.js";
import { startGenerationMeter } from "../../src/llm/embedded/generationProgress.js";

/** The terminal's erase-to-end-of-line sequence. */
const ERASE_LINE = "\x1b[K";

/** An output sink that says it is a terminal (or not) and keeps what is written to it. */
function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, columns: 80, writes, write: (text: string) => writes.push(text) };
}

describe("downloadLine", () => {
  it("shows the share, sizes, rate and time left", () => {
    const line = downloadLine({
      receivedBytes: 500_000_000,
      totalBytes: 1_000_000_000,
      resumedFromBytes: 0,
      bytesPerSecond: 10_000_000,
    });
    expect(line).toBe("[############------------]  50%  500 MB / 1.0 GB  10.0 MB/s  50 sec left");
  });

  it("without a known size: what arrived and the rate", () => {
    const line = downloadLine({
      receivedBytes: 1_500,
      totalBytes: undefined,
      resumedFromBytes: 0,
      bytesPerSecond: 1_000,
    });
    expect(line).toBe("downloading  1.5 kB  1.0 kB/s");
  });
});

describe("createDownloadBar", () => {
  const mirror = {
    name: "m.gguf",
    fileName: "m.gguf",
    url: "https://user:hunter2@mirror.example/m.gguf?token=abc123secret",
    sha256: "0".repeat(64),
    sizeBytes: undefined,
    licence: "see the mirror",
  };
  const progress = {
    receivedBytes: 2_000,
    totalBytes: 5_000,
    resumedFromBytes: 0,
    bytesPerSecond: 1,
  };

  it("names the mirror it downloads from without the URL's credentials", () => {
    const piped = sink(false);
    createDownloadBar(piped, mirror).start();
    expect(piped.writes).toEqual(["downloading https://***@mirror.example/m.gguf?token=***\n"]);
  });

  it("says downloaded only for a download that finished", () => {
    for (const done of [false, true]) {
      const terminal = sink(true);
      const bar = createDownloadBar(terminal, mirror);
      bar.start();
      bar.update(progress);
      bar.finish(done);
      expect(terminal.writes.some((line) => line.startsWith("downloaded"))).toBe(done);
    }
  });
});

describe("showGenerationProgress", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("draws the tokens and tokens per second in place on a terminal, and clears the line at the end", () => {
    const terminal = sink(true);
    const stop = showGenerationProgress(terminal);
    const meter = startGenerationMeter("model.gguf");
    meter.tokens(7);
    meter.tokens(5); // within the redraw interval of the first: may be skipped
    meter.finish(); // a finished call is always drawn
    stop();
    const lines = terminal.writes;
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines.slice(0, -1)) {
      expect(line.startsWith("\r  model.gguf: ")).toBe(true);
      expect(line.endsWith(`running)${ERASE_LINE}`)).toBe(true);
      expect(line).toMatch(/: \d+ tokens, \d+\.\d tokens\/s \(\d+ calls? running\)/);
    }
    expect(lines[0]).toContain(": 7 tokens, ");
    expect(lines[0]).toContain("(1 call running)");
    expect(lines.at(-2)).toContain(": 12 tokens, ");
    expect(lines.at(-2)).toContain("(0 calls running)");
    expect(Number(/, ([\d.]+) tokens\/s/.exec(lines.at(-2) ?? "")?.[1])).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`\r${ERASE_LINE}`);

    // Once stopped, nothing more is drawn.
    const after = startGenerationMeter("model.gguf");
    after.tokens(3);
    after.finish();
    expect(terminal.writes).toHaveLength(lines.length);
  });

  it("draws the first update even when the process started less than one redraw interval ago", () => {
    // The process clock reads 10 ms: the first call comes right after start-up.
    vi.spyOn(performance, "now").mockReturnValue(10);
    const terminal = sink(true);
    const stop = showGenerationProgress(terminal);
    const meter = startGenerationMeter("model.gguf");
    meter.tokens(4);
    expect(terminal.writes).toHaveLength(1);
    expect(terminal.writes[0]).toContain(": 4 tokens, ");
    meter.finish();
    stop();
  });

  it("writes nothing when the output is not a terminal", () => {
    const piped = sink(false);
    const stop = showGenerationProgress(piped);
    const meter = startGenerationMeter("model.gguf");
    meter.tokens(4);
    meter.finish();
    stop();
    expect(piped.writes).toEqual([]);
  });
});
