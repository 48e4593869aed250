/**
 * The rubric registry on PostgreSQL: the same scenarios as on SQLite, each in a database of its
 * own on a throwaway cluster (startPostgres, or EVALGATE_TEST_DATABASE_URL), plus two
 * registrations racing for the next version.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { ArtifactRegistry } from "../../src/rubrics/artifactRegistry.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";
import { CONTENT_QUALITY, checkQuestionCount, FIVE_QUESTIONS, QUIZ_RUBRIC } from "./fixtures.js";
import {
  keepsARollBack,
  listsByTargetAndDeletes,
  registersAndVersions,
} from "./registryScenarios.js";

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgres();
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
}, 60_000);

/** A new empty database on the cluster, and its URL. */
async function freshDatabase(): Promise<string> {
  const name = `rubrics_${randomUUID().replaceAll("-", "")}`;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withRegistry(work: (registry: RubricRegistry) => Promise<void>) {
  const registry = await RubricRegistry.open({ databaseUrl: await freshDatabase() });
  try {
    await work(registry);
  } finally {
    await registry.close();
  }
}

describe("RubricRegistry on PostgreSQL", () => {
  it(
    "registers versions: same content keeps its version, changed content gets the next",
    () => withRegistry(registersAndVersions),
    60_000,
  );

  it(
    "lists the latest of each rubric, by target type; delete hides but keeps versions",
    () => withRegistry(listsByTargetAndDeletes),
    60_000,
  );

  it(
    "keeps a roll-back when the active content is registered again",
    () => withRegistry(keepsARollBack),
    60_000,
  );

  it("gives two registries racing with changed content two consecutive versions", async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([
      RubricRegistry.open({ databaseUrl: url }),
      RubricRegistry.open({ databaseUrl: url }),
    ]);
    try {
      await a.register(CONTENT_QUALITY);
      const versions = await Promise.all([
        a.register({ ...CONTENT_QUALITY, description: "changed by a" }),
        b.register({ ...CONTENT_QUALITY, description: "changed by b" }),
      ]);
      expect([...versions].sort()).toEqual(["1.0.1", "1.0.2"]);
      expect((await a.versions("content_quality")).map((v) => v.version)).toEqual([
        "1.0.0",
        "1.0.1",
        "1.0.2",
      ]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);

  it("reviews an artifact and keeps its status and evaluations", async () => {
    const url = await freshDatabase();
    const rubricRegistry = await RubricRegistry.open({ databaseUrl: url });
    const functionRegistry = new FunctionRegistry().register(
      "scoring:check_question_count",
      checkQuestionCount,
    );
    const artifacts = await ArtifactRegistry.open({
      databaseUrl: url,
      rubricRegistry,
      rubricExecutor: new RubricExecutor({ functionRegistry }),
    });
    try {
      await rubricRegistry.register(QUIZ_RUBRIC);
      const short = await artifacts.create({
        type: "quiz",
        name: "Short",
        content: { questions: ["Q1"] },
        rubricIds: ["quiz_quality"],
      });
      const full = await artifacts.create({
        type: "quiz",
        name: "Full",
        content: FIVE_QUESTIONS,
        rubricIds: ["quiz_quality"],
      });
      await artifacts.submitForReview(short.id);
      const [approved] = await artifacts.submitForReview(full.id);
      expect((await artifacts.require(short.id)).status).toBe("needs_revision");
      const stored = await artifacts.require(full.id);
      expect(stored.status).toBe("approved");
      expect(stored.evaluations).toEqual([approved]);
    } finally {
      await artifacts.close();
      await rubricRegistry.close();
    }
  }, 60_000);
});
