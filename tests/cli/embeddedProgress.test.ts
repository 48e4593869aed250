/** The embedded model's terminal progress: the download bar's line. */
import { describe, expect, it } from "vitest";
import { downloadLine } from "../../src/cli/embeddedProgress.js";

describe("downloadLine", () => {
  it("shows the share, sizes, rate and time left", () => {
    const line = downloadLine({
      receivedBytes: 500_000_000,
      totalBytes: 1_000_000_000,
      resumedFromBytes: 0,
      bytesPerSecond: 10_000_000,
    });
    expect(line).toBe("[############------------]  50%  500 MB / 1.0 GB  10.0 MB/s  0:50 left");
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
