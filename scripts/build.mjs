#!/usr/bin/env node
// Compiles src/ and prompts/ into dist/ (the library, its .d.ts and the review pages).
//   node scripts/build.mjs          incremental: only what changed since the last build
//   node scripts/build.mjs --clean  dist/ removed first (what `npm pack` ships is built this way)
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
if (process.argv.includes("--clean"))
  rmSync(new URL("dist", new URL("../", import.meta.url)), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
