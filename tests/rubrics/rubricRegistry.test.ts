import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { CONTENT_QUALITY, QUIZ_RUBRIC } from "./fixtures.js";
import {
  keepsARollBack,
  listsByTargetAndDeletes,
  registersAndVersions,
} from "./registryScenarios.js";

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "evalgate-rubrics-"));
}

async function withRegistry(work: (registry: RubricRegistry, dir: string) => Promise<void>) {
  const dir = tempDir();
  const registry = await RubricRegistry.open({ sqlitePath: join(dir, "checkpoints.sqlite") });
  try {
    await work(registry, dir);
  } finally {
    await registry.close();
  }
}

describe("RubricRegistry on SQLite", () => {
  it("registers versions: same content keeps its version, changed content gets the next", () =>
    withRegistry(registersAndVersions));

  it("lists the latest of each rubric, by target type; delete hides but keeps versions", () =>
    withRegistry(listsByTargetAndDeletes));

  it("keeps a roll-back when the active content is registered again", () =>
    withRegistry(keepsARollBack));

  it("keeps the rubrics in the checkpoints' file across openings", async () => {
    const path = join(tempDir(), "checkpoints.sqlite");
    const first = await RubricRegistry.open({ sqlitePath: path });
    await first.register(QUIZ_RUBRIC);
    await first.close();
    const second = await RubricRegistry.open({ sqlitePath: path });
    try {
      expect((await second.get("quiz_quality"))?.criteria[0]?.id).toBe("question_count");
    } finally {
      await second.close();
    }
  });

  it("refuses a rubric without an id, and an invalid one with the loader's message", () =>
    withRegistry(async (registry) => {
      const { id: _id, ...anonymous } = QUIZ_RUBRIC;
      const missing = await registry.register(anonymous).catch((e: unknown) => e);
      expect(isEvalgateError(missing, "RUBRIC_CONFIG_INVALID")).toBe(true);
      const invalid = await registry
        .register({ ...QUIZ_RUBRIC, pass_threshold: 1.5 })
        .catch((e: unknown) => e);
      expect(isEvalgateError(invalid, "CATALOG_INVALID")).toBe(true);
      expect(String(invalid)).toContain("pass_threshold");
      expect(await registry.listAll()).toEqual([]);
    }));
});

describe("RubricRegistry.fromConfig", () => {
  it("registers the rubrics of a configuration object given in code", async () => {
    const dir = tempDir();
    const registry = await RubricRegistry.fromConfig(
      { rubrics: [CONTENT_QUALITY] },
      { sqlitePath: join(dir, "checkpoints.sqlite") },
    );
    try {
      expect((await registry.require("content_quality")).version).toBe("1.0.0");
    } finally {
      await registry.close();
    }
  });

  it("registers every rubric of a { rubrics: [...] } JSON file", async () => {
    const dir = tempDir();
    const file = join(dir, "rubrics.json");
    writeFileSync(file, JSON.stringify({ rubrics: [CONTENT_QUALITY, QUIZ_RUBRIC] }, null, 2));
    const registry = await RubricRegistry.fromConfig(file, {
      sqlitePath: join(dir, "checkpoints.sqlite"),
    });
    try {
      expect((await registry.listAll()).map((r) => [r.id, r.version])).toEqual([
        ["content_quality", "1.0.0"],
        ["quiz_quality", "1.0.0"],
      ]);
    } finally {
      await registry.close();
    }
  });

  it("names the file, line and path of a bad rubric in a list, and registers none", () =>
    withRegistry(async (registry, dir) => {
      const file = join(dir, "rubrics.json");
      const bad = {
        ...QUIZ_RUBRIC,
        id: "bad",
        criteria: [{ ...QUIZ_RUBRIC.criteria[0], weight: -1 }],
      };
      writeFileSync(file, JSON.stringify({ rubrics: [CONTENT_QUALITY, bad] }, null, 2));
      const error = await registry.registerFile(file).catch((e: unknown) => e);
      expect(isEvalgateError(error, "CATALOG_INVALID")).toBe(true);
      const message = String(error);
      expect(message).toContain(file);
      expect(message).toMatch(/rubrics\.json:\d+/);
      expect(message).toContain("$.rubrics[1].criteria[0].weight");
      expect(await registry.listAll()).toEqual([]);
    }));

  it("refuses a directory, a file over the size limit, YAML, and a schema_ref out of the folder", () =>
    withRegistry(async (registry, dir) => {
      const codeOf = async (file: string) =>
        ((await registry.registerFile(file).catch((e: unknown) => e)) as { code?: string }).code;
      expect(await codeOf(dir)).toBe("RUBRIC_CONFIG_INVALID");
      const big = join(dir, "big.json");
      writeFileSync(big, `{"rubrics": [], "pad": "${"x".repeat(4 * 1024 * 1024)}"}`);
      const tooBig = await registry.registerFile(big).catch((e: unknown) => e);
      expect(String(tooBig)).toContain("over the limit");
      const yaml = join(dir, "rubric.yaml");
      writeFileSync(yaml, "id: x\n");
      expect(String(await registry.registerFile(yaml).catch((e: unknown) => e))).toContain(
        "YAML is not read",
      );
      const escaping = join(dir, "escaping.json");
      const criterion = {
        ...CONTENT_QUALITY.criteria[1],
        scoring_method: { type: "schema", schema_ref: "../outside.schema.json" },
      };
      writeFileSync(
        escaping,
        JSON.stringify({ ...CONTENT_QUALITY, criteria: [CONTENT_QUALITY.criteria[0], criterion] }),
      );
      const outside = await registry.registerFile(escaping).catch((e: unknown) => e);
      expect(isEvalgateError(outside, "RUBRIC_CONFIG_INVALID")).toBe(true);
      expect(String(outside)).toContain("outside the catalog's folder");
      expect(await registry.listAll()).toEqual([]);
    }));

  it("stores a schema_ref file inline, so the registered rubric needs no file", () =>
    withRegistry(async (registry, dir) => {
      const schema = { type: "object", required: ["questions"] };
      writeFileSync(join(dir, "quiz.schema.json"), JSON.stringify(schema));
      const criterion = {
        ...CONTENT_QUALITY.criteria[1],
        scoring_method: { type: "schema", schema_ref: "quiz.schema.json" },
      };
      const file = join(dir, "content.json");
      writeFileSync(
        file,
        JSON.stringify({ ...CONTENT_QUALITY, criteria: [CONTENT_QUALITY.criteria[0], criterion] }),
      );
      await registry.registerFile(file);
      const method = (await registry.require("content_quality")).criteria[1]?.method;
      expect(method).toMatchObject({ kind: "schema", schema });
      expect(method).not.toHaveProperty("schemaRef");
    }));
});
