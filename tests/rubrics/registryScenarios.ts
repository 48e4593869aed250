/**
 * The registry's behaviour, written once and run against each database (SQLite and PostgreSQL):
 * register / versions / get / getForTarget / listAll / delete / update, as the levels-rubric
 * document describes them.
 */
import { expect } from "vitest";
import type { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { ASSESSMENT_RUBRIC, CONTENT_QUALITY, QUIZ_RUBRIC } from "./fixtures.js";

export async function registersAndVersions(registry: RubricRegistry): Promise<void> {
  expect(await registry.register(CONTENT_QUALITY)).toBe("1.0.0");
  // The same content again, keys in another order: the same version, nothing new stored.
  const reordered = Object.fromEntries(Object.entries(CONTENT_QUALITY).reverse());
  expect(await registry.add(reordered)).toEqual({
    id: "content_quality",
    version: "1.0.0",
    created: false,
  });
  // Changed content under the same declared version: the next version.
  const changed = { ...CONTENT_QUALITY, description: "Evaluates content, more strictly" };
  expect(await registry.register(changed)).toBe("1.0.1");
  // A bumped version, as update() expects: taken as declared.
  const bumped = { ...changed, version: "1.1.0", pass_threshold: 0.75 };
  expect(await registry.update(bumped)).toBe("1.1.0");

  const latest = await registry.get("content_quality");
  expect(latest?.version).toBe("1.1.0");
  expect(latest?.passingThreshold).toBe(0.75);
  const first = await registry.get("content_quality", "1.0.0");
  expect(first?.description).toBe("Evaluates the quality of generated content");
  expect(first?.criteria.map((c) => c.id)).toEqual(["clarity", "completeness"]);
  expect((await registry.get("content_quality", "1.0.1"))?.description).toBe(
    "Evaluates content, more strictly",
  );
  expect(await registry.get("content_quality", "9.9.9")).toBeUndefined();
  expect((await registry.versions("content_quality")).map((v) => [v.version, v.latest])).toEqual([
    ["1.0.0", false],
    ["1.0.1", false],
    ["1.1.0", true],
  ]);
}

export async function listsByTargetAndDeletes(registry: RubricRegistry): Promise<void> {
  await registry.register(CONTENT_QUALITY);
  await registry.register(QUIZ_RUBRIC);
  await registry.register(ASSESSMENT_RUBRIC);

  expect((await registry.listAll()).map((r) => r.id)).toEqual([
    "assessment_shape",
    "content_quality",
    "quiz_quality",
  ]);
  expect((await registry.getForTarget("content")).map((r) => r.id)).toEqual([
    "content_quality",
    "quiz_quality",
  ]);
  expect((await registry.getForTarget("assessment")).map((r) => r.id)).toEqual([
    "assessment_shape",
  ]);
  expect(await registry.getForTarget("rubric")).toEqual([]);

  expect(await registry.delete("quiz_quality")).toBe(true);
  expect(await registry.delete("quiz_quality")).toBe(false);
  expect(await registry.get("quiz_quality")).toBeUndefined();
  expect((await registry.listAll()).map((r) => r.id)).toEqual([
    "assessment_shape",
    "content_quality",
  ]);
  expect((await registry.getForTarget("content")).map((r) => r.id)).toEqual(["content_quality"]);
  // Kept for audit: the version is still readable by version.
  expect((await registry.get("quiz_quality", "1.0.0"))?.name).toBe("Quiz Quality");
  // Registering it again brings the same version back.
  expect(await registry.register(QUIZ_RUBRIC)).toBe("1.0.0");
  expect((await registry.get("quiz_quality"))?.version).toBe("1.0.0");
}

export async function keepsARollBack(registry: RubricRegistry): Promise<void> {
  await registry.register(CONTENT_QUALITY);
  const changed = { ...CONTENT_QUALITY, description: "Evaluates content, more strictly" };
  expect(await registry.register(changed)).toBe("1.0.1");
  await registry.activate("content_quality", "1.0.0");
  // The active version's content again: nothing stored, nothing moved.
  expect(await registry.add(CONTENT_QUALITY)).toEqual({
    id: "content_quality",
    version: "1.0.0",
    created: false,
  });
  expect((await registry.versions("content_quality")).map((v) => [v.version, v.latest])).toEqual([
    ["1.0.0", true],
    ["1.0.1", false],
  ]);
  // The latest version's content: active again, and the registration says which was before.
  expect(await registry.add(changed)).toEqual({
    id: "content_quality",
    version: "1.0.1",
    created: false,
    previous: "1.0.0",
  });
  expect((await registry.active("content_quality"))?.version).toBe("1.0.1");
}
