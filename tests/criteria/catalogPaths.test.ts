/** A catalog is data: every path it names stays inside its folder, and it cannot run package code. */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FunctionResolutionError } from "../../src/checks/errors.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { runSchemaCriterion } from "../../src/checks/schemaCriterion.js";
import { CatalogError } from "../../src/criteria/errors.js";
import { loadCatalog } from "../../src/criteria/load.js";
import { criterion } from "../checks/helpers.js";

let root: string;
let folder: string;
let outside: string;

function catalogWith(method: Record<string, unknown>): string {
  return `${JSON.stringify(
    {
      id: "paths",
      name: "Paths",
      version: "1",
      criteria: [
        { id: "c1", title: "First", description: "Checked by a function.", weight: 1, method },
      ],
    },
    null,
    2,
  )}\n`;
}

async function writeCatalog(name: string, method: Record<string, unknown>): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, catalogWith(method), "utf8");
  return path;
}

async function loadError(path: string, options?: Parameters<typeof loadCatalog>[1]) {
  const error = await loadCatalog(path, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CatalogError);
  return error as CatalogError;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "evalgate-paths-"));
  folder = join(root, "catalogs");
  outside = join(root, "elsewhere");
  await mkdir(folder);
  await mkdir(outside);
  await writeFile(join(folder, "checks.mjs"), "export const ok = () => true;\n", "utf8");
  await writeFile(join(outside, "evil.mjs"), "export const run = () => true;\n", "utf8");
  await writeFile(join(outside, "secret.json"), "root:x:0:0:root:/root:/bin/bash\n", "utf8");
  await symlink(join(outside, "evil.mjs"), join(folder, "linked.mjs"));
  await symlink(join(outside, "secret.json"), join(folder, "linked.schema.json"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("function criteria in a catalog file", () => {
  it("a package function is a catalog error at load, with the line and JSON path, and never runs", async () => {
    const path = await writeCatalog("spawn.json", {
      kind: "function",
      name: "cross-spawn:sync",
      args: ["-c", `id > ${join(root, "pwned.txt")}`],
    });
    const error = await loadError(path);
    expect(error.source).toBe(path);
    expect(error.line).toBe(13);
    expect(error.path).toEqual(["criteria", 0, "method", "name"]);
    expect(error.detail).toContain("cross-spawn");
    expect(existsSync(join(root, "pwned.txt"))).toBe(false);
  });

  it("absolute, ../ and symlinked modules outside the folder are refused", async () => {
    for (const name of [
      `${join(outside, "evil.mjs")}:run`,
      "../elsewhere/evil.mjs:run",
      "../elsewhere/evil:run",
      "linked.mjs:run",
    ]) {
      const error = await loadError(await writeCatalog("escape.json", { kind: "function", name }));
      expect(error.path).toEqual(["criteria", 0, "method", "name"]);
    }
  });

  it("a module inside the folder loads; a missing one is a catalog error", async () => {
    const good = await loadCatalog(
      await writeCatalog("good.json", { kind: "function", name: "checks:ok" }),
    );
    expect(good.criteria[0]?.method).toMatchObject({ name: "checks:ok" });
    const error = await loadError(
      await writeCatalog("missing.json", { kind: "function", name: "nothere:ok" }),
    );
    expect(error.detail).toContain("nothere");
  });

  it("a package function the application allows in code, by name, loads", async () => {
    const path = await writeCatalog("allowed.json", { kind: "function", name: "p-limit:default" });
    await loadError(path);
    const registry = new FunctionRegistry({
      baseDir: folder,
      packageFunctions: ["p-limit:default"],
    });
    const catalog = await loadCatalog(path, { functions: registry });
    expect(catalog.criteria).toHaveLength(1);
  });
});

describe("schemaRef in a catalog file", () => {
  it("a path out of the folder is refused without reading it, and its contents are never quoted", async () => {
    for (const schemaRef of [
      "../../../../../../../../etc/passwd",
      "../elsewhere/secret.json",
      join(outside, "secret.json"),
      "linked.schema.json",
    ]) {
      const error = await loadError(
        await writeCatalog("schema.json", { kind: "schema", schemaRef }),
      );
      expect(error.path).toEqual(["criteria", 0, "method", "schemaRef"]);
      expect(error.message).not.toContain("root:");
    }
  });

  it("a missing schemaRef file is a catalog error", async () => {
    const error = await loadError(
      await writeCatalog("noschema.json", { kind: "schema", schemaRef: "absent.schema.json" }),
    );
    expect(error.detail).toContain("absent.schema.json");
  });
});

describe("at evaluation time (catalogs built in code)", () => {
  it("the registry refuses package, absolute, ../ and symlinked modules unless allowed", async () => {
    const registry = new FunctionRegistry({ baseDir: folder });
    for (const ref of [
      "cross-spawn:sync",
      "p-limit:default",
      `${join(outside, "evil.mjs")}:run`,
      "../elsewhere/evil:run",
      "linked:run",
    ]) {
      await expect(registry.resolve(ref)).rejects.toBeInstanceOf(FunctionResolutionError);
    }
    expect((await registry.resolve("checks:ok")).origin).toBe("module");
    const allowing = new FunctionRegistry({
      baseDir: folder,
      packageFunctions: ["p-limit:default"],
    });
    expect((await allowing.resolve("p-limit:default")).origin).toBe("module");
  });

  it("a schemaRef out of the base folder is not read, and no contents are quoted", async () => {
    for (const schemaRef of ["../elsewhere/secret.json", "linked.schema.json"]) {
      const outcome = await runSchemaCriterion(criterion({ kind: "schema", schemaRef }), "{}", {
        baseDir: folder,
      });
      expect(outcome.evaluated).toBe(false);
      expect(outcome.judgeError).toMatch(/outside/);
      expect(JSON.stringify(outcome)).not.toContain("root:");
    }
  });
});
