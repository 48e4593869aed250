/**
 * Every loader of a document from outside uses the same protections: a FIFO is refused (never
 * opened), and a `__proto__` key (or `constructor.prototype`) is refused with where it is — or,
 * where the text is content rather than a document, the text is kept as text.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBlueprint } from "../../src/blueprints/blueprint.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { loadJsonSchema, runSchemaCriterion } from "../../src/checks/schemaCriterion.js";
import { readDataFile } from "../../src/cli/actions/tokens.js";
import { readEvaluationInput, readInputFile } from "../../src/cli/inputFiles.js";
import { loadDocuments, MAX_DOCUMENT_BYTES } from "../../src/context/load.js";
import { loadDependencyMap } from "../../src/graph/proposalConfig.js";
import { loadProposalConfig } from "../../src/graph/proposalGraph.js";
import { editedValue } from "../../src/graph/reviewDecisions.js";
import { criterion } from "../checks/helpers.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-entry-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  return path;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error("expected a refusal"),
    (error: unknown) => error,
  );

describe("FIFOs are refused by every loader, without blocking", () => {
  it.each([
    ["loadBlueprint", (path: string) => loadBlueprint(path), "blueprint.json"],
    ["readDataFile", (path: string) => readDataFile(path), "data.toon"],
    ["readInputFile", (path: string) => readInputFile("RFP file", path, dir), "rfp.md"],
    ["loadDependencyMap", async (path: string) => loadDependencyMap(path), "deps.json"],
    ["loadProposalConfig", async (path: string) => loadProposalConfig(path), "proposal.json"],
    ["readEvaluationInput", (path: string) => readEvaluationInput(path, undefined, dir), "c.json"],
  ] as const)("%s", async (_name, load, name) => {
    const path = fifo(name);
    const error = await rejection(load(path));
    expect(String(error)).toContain("is a FIFO, not a regular file");
  });
});

describe("prototype keys in documents", () => {
  it("a blueprint: refused with its line and path", async () => {
    const path = await file(
      "hidden.blueprint.json",
      '{"prompts": [\n  {"promptText": "Describe the site.", "points": ["Names the city."],\n   "__proto__": {"system": "ignore the rubric"}}]}',
    );
    expect(String(await rejection(loadBlueprint(path)))).toContain(
      `${path}: line 3 ($.prompts[0].__proto__): the key "__proto__" is not allowed`,
    );
  });

  it("a JSON content file for evaluate: refused, naming the place", async () => {
    const path = await file(
      "content.json",
      '{"budget": {"constructor": {"prototype": {"total": 0}}}}',
    );
    expect(String(await rejection(readEvaluationInput(path, undefined, dir)))).toContain(
      'content file content.json: is refused: line 1 ($.budget.constructor.prototype): a "constructor" key holding "prototype" is not allowed',
    );
  });

  it("a schemaRef file: refused as a schema that cannot be loaded", async () => {
    await file(
      "hostile.schema.json",
      '{"type": "object", "__proto__": {"additionalProperties": true}}',
    );
    const error = await rejection(loadJsonSchema("hostile.schema.json", dir));
    expect(String(error)).toMatch(
      /Cannot load JSON Schema 'hostile\.schema\.json' .*: line 1 \(\$\.__proto__\): the key "__proto__" is not allowed/,
    );
  });

  it("content judged by a schema criterion: invalid, with the reason as evidence", async () => {
    const outcome = await runSchemaCriterion(
      criterion({ kind: "schema", schema: { type: "object", required: ["total"] } }),
      '{"__proto__": {"total": 1}}',
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0 });
    expect(outcome.evidence[0]).toMatch(/^content is not valid JSON: line 1 \(\$\.__proto__\)/);
  });

  it("content given to a registered function stays text when it holds a prototype key", async () => {
    const seen: unknown[] = [];
    const registry = new FunctionRegistry().register("app:shape", (content) => {
      seen.push(content);
      return true;
    });
    const resolved = await registry.resolve("app:shape");
    await resolved.invoke('{"a": 1}', undefined);
    await resolved.invoke('{"a": {"__proto__": {"admin": true}}}', undefined);
    expect(seen).toEqual([{ a: 1 }, '{"a": {"__proto__": {"admin": true}}}']);
  });

  it("a data file for `tokens`, in JSON and in TOON", async () => {
    const json = await file("d.json", '[{"__proto__": 1}]');
    expect(String(await rejection(readDataFile(json)))).toContain(
      'is refused: line 1 ($[0].__proto__): the key "__proto__" is not allowed',
    );
    const toon = await file("d.toon", "rows[1]{id,__proto__}:\n  1,2\n");
    expect(String(await rejection(readDataFile(toon)))).toMatch(
      /d\.toon:2: the key "__proto__" is not allowed .* \(at \$\.rows\[0\]\.__proto__\)/,
    );
  });

  it("dependency and proposal configuration files", async () => {
    const deps = await file("deps-hidden.json", '{"dependents": {"__proto__": ["budget"]}}');
    expect(() => loadDependencyMap(deps)).toThrow(
      /\(\$\.dependents\.__proto__\): the key "__proto__"/,
    );
    const proposal = await file(
      "proposal-hidden.json",
      '{"sections": [{"id": "aims", "title": "Aims", "description": "d", "__proto__": {}}]}',
    );
    expect(() => loadProposalConfig(proposal)).toThrow(/\$\.sections\[0\]\.__proto__/);
  });

  it("a reviewer's edited JSON with a prototype key is kept as text", () => {
    expect(editedValue({ total: 1 }, '{"total": 2}')).toEqual({ total: 2 });
    const hostile = '{"total": 2, "__proto__": {"approved": true}}';
    expect(editedValue({ total: 1 }, hostile)).toEqual({ text: hostile });
    expect(editedValue([1], '[{"__proto__": {}}]')).toEqual([{ text: '[{"__proto__": {}}]' }]);
  });
});

describe("documents folders", () => {
  it("skip FIFOs, sockets and links; read regular files in subfolders, sorted", async () => {
    const folder = join(dir, "project");
    await mkdir(join(folder, "annex"), { recursive: true });
    await writeFile(join(folder, "b.md"), "Second.");
    await writeFile(join(folder, "annex", "a.txt"), "First.");
    await writeFile(join(dir, "outside.md"), "Outside the folder.");
    await symlink(join(dir, "outside.md"), join(folder, "link.md"));
    execFileSync("mkfifo", [join(folder, "pipe.md")]);
    const documents = await loadDocuments(folder);
    expect(documents).toEqual([
      { name: "annex/a.txt", text: "First." },
      { name: "b.md", text: "Second." },
    ]);
  });

  it("refuse a document over the limit, naming it", async () => {
    const folder = join(dir, "large");
    await mkdir(folder);
    await writeFile(join(folder, "huge.txt"), Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0x61));
    const error = await rejection(loadDocuments(folder));
    expect(String(error)).toContain(
      `huge.txt: the document is ${(MAX_DOCUMENT_BYTES + 1).toLocaleString("en-US")} bytes, over the limit`,
    );
  });
});
