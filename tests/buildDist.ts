/**
 * Vitest global setup: compiles dist/ (incrementally) before any test runs, so the tests that run
 * the `evalgate` command (bin/evalgate.mjs starts the compiled CLI, as an installed package does)
 * always run today's source.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function buildDist(): void {
  const script = fileURLToPath(new URL("../scripts/build.mjs", import.meta.url));
  execFileSync(process.execPath, [script], { stdio: "inherit" });
}
