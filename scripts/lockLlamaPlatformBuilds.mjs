#!/usr/bin/env node
/**
 * Keeps package-lock.json complete for the embedded model's runtime. node-llama-cpp lists one
 * prebuilt binary package per platform as optional dependencies; `npm install` records only the
 * ones it could fetch, so behind a registry mirror that serves Linux builds only, the lock loses
 * the macOS, Windows and RISC-V entries and `npm ci` then refuses the lock ("Missing … from lock
 * file"). This script writes the missing entries back (version, os, cpu: enough for `npm ci` to
 * skip them on other platforms and fetch them on theirs). Run it after `npm install` changes the
 * lock: `node scripts/lockLlamaPlatformBuilds.mjs`.
 */
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const PLATFORMS = {
  "linux-arm64": { os: ["linux"], cpu: ["arm64", "x64"], libc: ["glibc"] },
  "linux-armv7l": { os: ["linux"], cpu: ["arm", "x64"], libc: ["glibc"] },
  "linux-riscv64": { os: ["linux"], cpu: ["riscv64"], libc: ["glibc"] },
  "linux-x64": { os: ["linux"], cpu: ["x64"], libc: ["glibc"] },
  "mac-arm64-metal": { os: ["darwin"], cpu: ["arm64", "x64"] },
  "mac-x64": { os: ["darwin"], cpu: ["x64"] },
  "win-arm64": { os: ["win32"], cpu: ["arm64", "x64"] },
  "win-x64": { os: ["win32"], cpu: ["x64"] },
};

const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const runtime = lock.packages["node_modules/node-llama-cpp"];
if (runtime === undefined) throw new Error("node-llama-cpp is not in package-lock.json");
let added = 0;
for (const [platform, fields] of Object.entries(PLATFORMS)) {
  const key = `node_modules/@node-llama-cpp/${platform}`;
  if (lock.packages[key] !== undefined) continue;
  lock.packages[key] = {
    version: runtime.version,
    ...fields,
    license: "MIT",
    optional: true,
    engines: { node: ">=20.0.0" },
  };
  added++;
}
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} node-llama-cpp platform build(s) added`);
