/** Catalog files with CRLF (Windows) and CR-only (old Mac) line endings read like LF files. */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogError, loadCatalog } from "../../src/criteria/index.js";

const invalidDir = join(import.meta.dirname, "../fixtures/catalogs/invalid");
const shipped = join(import.meta.dirname, "../../data/criteria/ifb_profi.toon");
const ENDINGS = [
  ["CRLF", "\r\n"],
  ["CR-only", "\r"],
] as const;

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-endings-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The file's text with every LF replaced by `ending`, written under the same name elsewhere. */
async function rewritten(path: string, name: string, ending: string): Promise<string> {
  const text = readFileSync(path, "utf8");
  expect(text.includes("\r")).toBe(false);
  const target = join(dir, `${ending === "\r" ? "cr" : "crlf"}-${name}`);
  await writeFile(target, text.replaceAll("\n", ending));
  return target;
}

/** The catalog as read, without the path it was read from. */
async function loaded(path: string): Promise<object> {
  const { source: _source, ...catalog } = await loadCatalog(path);
  return catalog;
}

async function failure(path: string): Promise<CatalogError> {
  const error = await loadCatalog(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof CatalogError) return error;
  throw new Error(`expected a CatalogError from ${path}, got ${String(error)}`);
}

const JSON_CATALOG = [
  "{",
  '  "id": "endings",',
  '  "name": "Endings",',
  '  "version": "1",',
  '  "criteria": [',
  '    { "id": "c1", "title": "One", "description": "Checked.", "weight": 1,',
  '      "method": { "kind": "check" } }',
  "  ]",
  "}",
].join("\n");

describe.each(ENDINGS)("a catalog file with %s line endings", (_name, ending) => {
  it("the shipped TOON catalog reads the same as with LF", async () => {
    const path = await rewritten(shipped, "ifb_profi.toon", ending);
    expect(await loaded(path)).toEqual(await loaded(shipped));
  });

  it("a JSON catalog reads the same as with LF", async () => {
    const lf = join(dir, `lf-${ending.length}.json`);
    await writeFile(lf, JSON_CATALOG);
    const path = await rewritten(lf, "endings.json", ending);
    expect(await loaded(path)).toEqual(await loaded(lf));
  });

  const files = readdirSync(invalidDir).filter((file) => /\.(toon|json)$/.test(file));
  it.each(files)("%s fails on the same line, for the same reason", async (file) => {
    const original = await failure(join(invalidDir, file));
    const path = await rewritten(join(invalidDir, file), file, ending);
    const error = await failure(path);
    expect(error.line).toBe(original.line);
    expect(error.column).toBe(original.column);
    expect(error.path).toEqual(original.path);
    expect(error.detail).toBe(original.detail);
  });
});
