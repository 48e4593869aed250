/**
 * The install stays lean and `npm ci` keeps working: node-llama-cpp is optional, its CUDA and
 * Vulkan builds are replaced by an empty package, and the lock lists every platform build (a
 * registry mirror that serves Linux builds only makes `npm install` drop the others, and
 * `npm ci` then refuses the lock: `node scripts/lockLlamaPlatformBuilds.mjs` puts them back).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../../../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  optionalDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
  overrides?: Record<string, string>;
};
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as {
  packages: Record<
    string,
    { name?: string; version?: string; optionalDependencies?: Record<string, string> }
  >;
};

const GPU_BUILDS = [
  "linux-x64-cuda",
  "linux-x64-cuda-ext",
  "linux-x64-vulkan",
  "win-x64-cuda",
  "win-x64-cuda-ext",
  "win-x64-vulkan",
];

describe("the embedded runtime's install", () => {
  it("is an optional dependency, not a required one", () => {
    expect(pkg.optionalDependencies?.["node-llama-cpp"]).toBeDefined();
    expect(pkg.dependencies?.["node-llama-cpp"]).toBeUndefined();
  });

  it("replaces the GPU builds with the empty package", () => {
    for (const build of GPU_BUILDS) {
      expect(pkg.overrides?.[`@node-llama-cpp/${build}`]).toBe("npm:empty-npm-package@1.0.0");
      expect(lock.packages[`node_modules/@node-llama-cpp/${build}`]?.name).toBe(
        "empty-npm-package",
      );
    }
  });

  it("lists every platform build node-llama-cpp names in the lock", () => {
    const runtime = lock.packages["node_modules/node-llama-cpp"];
    const builds = Object.keys(runtime?.optionalDependencies ?? {});
    expect(builds.length).toBeGreaterThan(8);
    const missing = builds.filter((name) => lock.packages[`node_modules/${name}`] === undefined);
    expect(missing).toEqual([]);
  });
});
