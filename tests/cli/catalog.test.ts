/** `evalgate catalog validate`, `evalgate catalog convert` and `evalgate tokens`, end to end. */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { decode, encode as encodeToon } from "@toon-format/toon";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/criteria/load.js";
import type { Catalog } from "../../src/criteria/model.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { decodeToon } from "../../src/toon/decode.js";
import {
  BUDGET_CATALOG,
  IFB_CATALOG,
  INVALID_CATALOGS,
  ROOT,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

const temp = tempFolderForFile();
let pointsCatalog: string;
let rubricCatalog: string;

const LEVELS = [
  { id: "fail", label: "Fail", description: "Too few", score: 0 },
  { id: "pass", label: "Pass", description: "Enough", score: 0.7 },
  { id: "excellent", label: "Excellent", score: 1, indicators: ["Uses concrete examples"] },
];

beforeAll(async () => {
  // The points format: multipliers 1, 1, 3, 0.5 → weights normalised to fractions (0.181818…)
  pointsCatalog = await writeText(
    temp.dir,
    "points.json",
    JSON.stringify({
      id: "stoic",
      points: [
        "Virtue is the only good.",
        ["contains", "mandatory keyword"],
        { text: "A very important conceptual point.", multiplier: 3, citation: "Req 2.1a" },
        { fn: "matches", fnArgs: "^The response must start", multiplier: 0.5 },
      ],
    }),
  );
  // the rubric format: levels with indicators, a schema criterion, an LLM-decoded one.
  rubricCatalog = await writeText(
    temp.dir,
    "rubric.json",
    JSON.stringify({
      id: "quiz_quality",
      name: "Quiz Quality",
      version: "1.0.0",
      pass_threshold: 0.7,
      criteria: [
        {
          id: "shape",
          name: "Shape",
          description: "Questions are a list",
          weight: 0.6,
          levels: LEVELS,
          scoring_method: { type: "schema", schema: { type: "object", required: ["questions"] } },
        },
        {
          id: "pedagogy",
          name: "Pedagogy",
          description: "Questions test understanding",
          weight: 0.4,
          levels: LEVELS,
          scoring_method: { type: "llm_decode", decode_prompt: "Judge: {{questions}}" },
        },
      ],
    }),
  );
});

/** A catalog without what loading adds (the file it came from, the loader's notes). */
function modelOf(catalog: Catalog): Omit<Catalog, "source" | "warnings"> {
  const { source: _source, warnings: _warnings, ...rest } = catalog;
  return rest;
}

describe.concurrent("evalgate catalog validate", { timeout: SPAWN_TIMEOUT }, () => {
  it("a shipped catalog: its findings, exit 0", async () => {
    const run = await runEvalgate(["catalog", "validate", IFB_CATALOG]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toBe(
      `${IFB_CATALOG}: catalog ifb_profi "PROFI Standard" version 1.0, 3 criteria (3 judged by the model, 0 deterministic)`,
    );
    // The meta-rubric's notes on c2 and c3 (1–5 scores without guideline bands).
    expect(lines.filter((l) => /^\s+info\s+guideline_bands\s/.test(l))).toHaveLength(2);
    expect(lines.some((l) => l.includes(`(at ${IFB_CATALOG}:11 $.criteria[1])`))).toBe(true);
    expect(lines.at(-1)).toBe("valid: 0 errors, 0 warnings, 2 notes");
  });

  it("a levels rubric whose levels are not ordered by score: an error naming where, exit 1", async () => {
    const unordered = join(
      import.meta.dirname,
      "../fixtures/catalogs/invalid/rubric-unordered-levels.json",
    );
    const run = await runEvalgate(["catalog", "validate", unordered]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^\s+error\s.*ordered by score.*\$\.criteria\[0\]\.levels/m);
  });

  it("a warning names the line and the key as the file writes them, not the loaded model's", async () => {
    const criterion = (
      id: string,
    ) => `    { "id": "${id}", "name": "Question Count", "description": "Enough questions?",
      "weight": 0.5, "levels": [ { "id": "few", "label": "Few", "score": 0 },
                                 { "id": "enough", "label": "Enough", "score": 1 } ],
      "scoring_method": { "type": "llm_decode" } }`;
    const text = `{ "id": "quiz", "name": "Quiz", "version": "1", "pass_threshold": 0.6,
  "criteria": [
${criterion("count")},
${criterion("count_again")} ] }
`;
    const path = await writeText(temp.dir, "twin-titles.json", text);
    const run = await runEvalgate(["catalog", "validate", path]);
    expect(run.code).toBe(0);
    // the rubric form calls the title `name`; the second criterion's starts on line 7
    expect(run.stdout).toContain(
      `duplicate criterion title "Question Count" (also criteria[0])  (at ${path}:7 $.criteria[1].name)`,
    );
  });

  it("a catalog whose weights had to be normalised: the warning, exit 0", async () => {
    const run = await runEvalgate(["catalog", "validate", pointsCatalog]);
    expect(run.code).toBe(0);
    // Named by the meta-rubric check that found it, on the catalog as written.
    expect(run.stdout).toMatch(/^\s+warning\s+weight_distribution\s+.*normalised/m);
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(
      /^valid: 0 errors, 1 warning, \d+ notes?$/,
    );
  });

  it("a broken catalog: the error with its line and path, exit 1", async () => {
    const toon = join(INVALID_CATALOGS, "toon-negative-weight.toon");
    const json = join(INVALID_CATALOGS, "s004-duplicate-id.json");
    const [toonRun, jsonRun] = await Promise.all([
      runEvalgate(["catalog", "validate", toon]),
      runEvalgate(["catalog", "validate", json]),
    ]);
    expect(toonRun.code).toBe(1);
    expect(toonRun.stdout).toContain(`${toon}: invalid catalog`);
    expect(toonRun.stdout).toMatch(
      /^\s+error\s+load\s+.*>=0.*\(at tests\/fixtures\/catalogs\/invalid\/toon-negative-weight\.toon:8 \$\.criteria\[2\]\.weight\)$/m,
    );
    expect(toonRun.stdout.trim().split("\n").at(-1)).toBe("invalid: 1 error");
    expect(jsonRun.code).toBe(1);
    expect(jsonRun.stdout).toMatch(
      /duplicate criterion id.*s004-duplicate-id\.json:22 \$\.criteria\[1\]\.id\)$/m,
    );
  });

  it("says what was expected where: a JSON key without quotes, and a TOON header's typo with the key it meant", async () => {
    const json = await writeText(temp.dir, "unquoted.json", '{\n  "id": "x",\n  name: "y"\n}\n');
    const toon = join(INVALID_CATALOGS, "toon-misspelled-type.toon");
    const [jsonRun, toonRun] = await Promise.all([
      runEvalgate(["catalog", "validate", json]),
      runEvalgate(["catalog", "validate", toon]),
    ]);
    expect(jsonRun.code).toBe(1);
    expect(jsonRun.stdout).toContain(
      "invalid JSON: expected a property name in double quotes, found a word without double quotes (JSON quotes every name and text; its only bare words are true, false and null)",
    );
    expect(jsonRun.stdout).toMatch(/\(at .*unquoted\.json:3:3\)$/m);
    expect(jsonRun.stdout).not.toContain("an unexpected character");
    expect(toonRun.code).toBe(1);
    expect(toonRun.stdout).toContain('unknown key "tpye": did you mean "type"?');
    expect(toonRun.stdout).not.toContain("undefined");
  });

  it("a function criterion naming a package is an error with its line and path, exit 1, and never runs", async () => {
    const pwned = join(temp.dir, "pwned.txt");
    const path = await writeText(
      temp.dir,
      "spawn.json",
      `${JSON.stringify(
        {
          id: "spawn",
          name: "Spawn",
          version: "1",
          criteria: [
            {
              id: "c1",
              title: "Runs",
              description: "A shell command.",
              weight: 1,
              method: { kind: "function", name: "cross-spawn:sync", args: ["-c", `id > ${pwned}`] },
            },
          ],
        },
        null,
        2,
      )}\n`,
    );
    const run = await runEvalgate(["catalog", "validate", path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^\s+error\s+load\s+.*cross-spawn.*spawn\.json:13 \$\.criteria\[0\]\.method\.name\)$/m,
    );
    const { existsSync } = await import("node:fs");
    expect(existsSync(pwned)).toBe(false);
  });

  it("evaluate with a catalog that is invalid (a bad regex, a missing schema file) exits 2, no model needed", async () => {
    const regex = await writeText(
      temp.dir,
      "regex.json",
      JSON.stringify({ id: "re", points: [{ fn: "matches", fnArgs: "(unclosed" }, "Clear aims."] }),
    );
    const schema = await writeText(
      temp.dir,
      "schema.json",
      JSON.stringify({
        id: "sc",
        name: "Schema",
        version: "1",
        criteria: [
          {
            id: "c1",
            title: "Shape",
            description: "Shaped.",
            weight: 1,
            method: { kind: "schema", schemaRef: "absent.schema.json" },
          },
        ],
      }),
    );
    const content = await writeText(temp.dir, "content.md", "Clear aims and a budget.");
    for (const catalog of [regex, schema]) {
      const validate = await runEvalgate(["catalog", "validate", catalog]);
      expect(validate.code).toBe(1);
      const run = await runEvalgate(["evaluate", content, "--catalog", catalog], {
        env: { OLLAMA_BASE_URL: "http://127.0.0.1:1" },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("cannot use the catalog");
    }
  });

  it("a catalog file that does not exist is an error of the command, exit 2", async () => {
    const run = await runEvalgate(["catalog", "validate", "data/criteria/none.toon"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(
      "evalgate: cannot use the catalog: data/criteria/none.toon: catalog file not found [CATALOG_NOT_FOUND]",
    );
  });
});

describe.concurrent("evalgate catalog convert", { timeout: SPAWN_TIMEOUT }, () => {
  it.each([
    ["the TOON criteria dialect catalog", IFB_CATALOG, "toon"],
    ["an evaluation node JSON catalog", BUDGET_CATALOG, "json"],
    ["points format (normalised weights)", "points", "toon"],
    ["a rubric in the rubric format (levels, schema)", "rubric", "toon"],
  ] as const)("%s (%s) as %s loads back to an equal catalog", async (_name, source, to) => {
    const path = source === "points" ? pointsCatalog : source === "rubric" ? rubricCatalog : source;
    const run = await runEvalgate(["catalog", "convert", path, "--to", to]);
    expect(run.stderr.replace(/^warning: .*\n/gm, "")).toBe("");
    expect(run.code).toBe(0);

    const original = await loadCatalog(resolve(ROOT, path));
    const again = parseCatalog(run.stdout, { format: to, source: `converted.${to}` });
    expect(modelOf(again)).toEqual(modelOf(original));
    // evalgate's own model, written as spec TOON (strict decoder) or plain JSON.
    const document = to === "toon" ? decode(run.stdout, { strict: true }) : JSON.parse(run.stdout);
    expect(document).toEqual(JSON.parse(JSON.stringify(modelOf(original))));
    expect(document).not.toHaveProperty("source");
    expect(document).not.toHaveProperty("warnings");
  });

  it("--out writes the file, which loadCatalog reads back", async () => {
    const out = join(temp.dir, "rubric.converted.json");
    const run = await runEvalgate([
      "catalog",
      "convert",
      rubricCatalog,
      "--to",
      "json",
      "--out",
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(modelOf(await loadCatalog(out))).toEqual(modelOf(await loadCatalog(rubricCatalog)));
  });

  it("--to must be toon or json", async () => {
    const run = await runEvalgate(["catalog", "convert", IFB_CATALOG, "--to", "yaml"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("argument 'yaml' is invalid. Allowed choices are toon, json.");
  });
});

describe.concurrent("evalgate tokens", { timeout: SPAWN_TIMEOUT }, () => {
  function counts(value: unknown) {
    return {
      toon: encode(encodeToon(value)).length,
      prettyJson: encode(JSON.stringify(value, null, 2)).length,
      minifiedJson: encode(JSON.stringify(value)).length,
    };
  }

  it("counts a JSON file's value as TOON, pretty and minified JSON", async () => {
    const value: unknown = JSON.parse(await readFile(join(ROOT, BUDGET_CATALOG), "utf8"));
    const expected = counts(value);
    const [json, table] = await Promise.all([
      runEvalgate(["tokens", BUDGET_CATALOG, "--json"]),
      runEvalgate(["tokens", BUDGET_CATALOG]),
    ]);
    expect(json.code).toBe(0);
    const reported = JSON.parse(json.stdout);
    expect(reported).toMatchObject({ file: BUDGET_CATALOG, format: "json", ...expected });
    expect(reported.savingsVsPretty).toBeCloseTo(
      (1 - expected.toon / expected.prettyJson) * 100,
      1,
    );
    expect(reported.savingsVsMinified).toBeCloseTo(
      (1 - expected.toon / expected.minifiedJson) * 100,
      1,
    );
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^\\s+TOON\\s+${expected.toon}$`, "m"));
    expect(table.stdout).toMatch(
      new RegExp(
        `^\\s+JSON \\(2-space\\)\\s+${expected.prettyJson}\\s+TOON uses [\\d.]+% fewer$`,
        "m",
      ),
    );
    expect(table.stdout).toMatch(
      new RegExp(`^\\s+JSON \\(minified\\)\\s+${expected.minifiedJson}\\s`, "m"),
    );
  });

  it("decodes a TOON file (the TOON criteria dialect) and counts its data", async () => {
    const data = decodeToon(await readFile(join(ROOT, IFB_CATALOG), "utf8"));
    const run = await runEvalgate(["tokens", IFB_CATALOG, "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: "toon", ...counts(data) });
  });

  it("a file that does not exist, exit 2", async () => {
    const run = await runEvalgate(["tokens", "nowhere.json"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      "evalgate: data file nowhere.json: no such file [INPUT_FILE_UNREADABLE]",
    );
  });
});
