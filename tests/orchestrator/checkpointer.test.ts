import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { CheckpointerError } from "../../src/orchestrator/errors.js";
import { redactSecretText as redactUrl } from "../../src/redact.js";
import { DEFAULT_SQLITE_PATH } from "../../src/store/location.js";
import { tempDir } from "./helpers.js";

/** A 127.0.0.1 port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const checkpoint = {
  v: 4,
  id: "1f0a0000-0000-6000-8000-000000000001",
  ts: "2026-01-01T00:00:00.000Z",
  channel_values: { status: "awaiting_review" },
  channel_versions: { status: 1 },
  versions_seen: {},
};

describe("createCheckpointer", () => {
  let temp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    temp = tempDir("evalgate-checkpointer-");
  });
  afterEach(() => temp.remove());

  it("commits checkpoints in WAL mode without waiting for the disk (synchronous NORMAL), where a crash keeps them", async () => {
    const checkpointer = await createCheckpointer({
      sqlitePath: join(temp.dir, "c.sqlite"),
      env: {},
    });
    try {
      const { db } = checkpointer.saver as unknown as {
        db: { pragma(source: string, options: { simple: true }): unknown };
      };
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
    } finally {
      await checkpointer.close();
    }
  });

  it("opens .evalgate/checkpoints.sqlite under the working directory by default, creating the folder", async () => {
    const checkpointer = await createCheckpointer({ cwd: temp.dir, env: {} });
    const path = join(temp.dir, DEFAULT_SQLITE_PATH);
    expect(checkpointer.kind).toBe("sqlite");
    expect(checkpointer.location).toBe(path);
    expect(existsSync(path)).toBe(true);

    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    await checkpointer.saver.put(
      config,
      checkpoint,
      { source: "input", step: -1, parents: {} },
      { status: 1 },
    );
    await checkpointer.close();
    await checkpointer.close();

    const reopened = await createCheckpointer({ cwd: temp.dir, env: {} });
    const tuple = await reopened.saver.getTuple({ configurable: { thread_id: "t" } });
    expect(tuple?.checkpoint.channel_values).toEqual({ status: "awaiting_review" });
    await reopened.close();
  });

  it("resolves a relative sqlitePath against cwd, and an explicit path wins over DATABASE_URL", async () => {
    const checkpointer = await createCheckpointer({
      cwd: temp.dir,
      sqlitePath: "nested/dir/reviews.sqlite",
      env: { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
    });
    expect(checkpointer.kind).toBe("sqlite");
    expect(checkpointer.location).toBe(join(temp.dir, "nested/dir/reviews.sqlite"));
    expect(existsSync(checkpointer.location)).toBe(true);
    await checkpointer.close();
  });

  it("uses PostgreSQL when DATABASE_URL is set, and reports a database it cannot reach without the password", async () => {
    const port = await closedPort();
    const url = `postgres://reviewer:s3cret-pw@127.0.0.1:${port}/evalgate`;
    const error = await createCheckpointer({ env: { DATABASE_URL: url } }).catch((e) => e);
    expect(error).toBeInstanceOf(CheckpointerError);
    expect(error.location).toBe(`postgres://***@127.0.0.1:${port}/evalgate`);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).not.toContain("s3cret-pw");

    const explicit = await createCheckpointer({ databaseUrl: url, sqlitePath: "x.sqlite" }).catch(
      (e) => e,
    );
    expect(explicit).toBeInstanceOf(CheckpointerError);
    expect(explicit.location).toContain("postgres://");
  });

  it("reports a file that is not SQLite, and an empty path, as CheckpointerError", async () => {
    const bogus = join(temp.dir, "notes.sqlite");
    writeFileSync(bogus, "these are meeting notes, not a database\n".repeat(40));
    const error = await createCheckpointer({ sqlitePath: bogus, env: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(CheckpointerError);
    expect(error.message).toContain(bogus);

    const folder = join(temp.dir, "a-folder");
    mkdirSync(folder);
    await expect(createCheckpointer({ sqlitePath: folder, env: {} })).rejects.toBeInstanceOf(
      CheckpointerError,
    );
    await expect(createCheckpointer({ sqlitePath: " ", env: {} })).rejects.toBeInstanceOf(
      CheckpointerError,
    );
  });
});

describe("redactUrl on a database URL", () => {
  it("hides the user name and password and keeps the rest", () => {
    expect(redactUrl("postgres://u:pw@db.internal:5432/app?sslmode=require")).toBe(
      "postgres://***@db.internal:5432/app?sslmode=require",
    );
    expect(redactUrl("postgres://u@localhost/app")).toBe("postgres://***@localhost/app");
    expect(redactUrl("postgres://localhost/app")).toBe("postgres://localhost/app");
    expect(redactUrl("not a url")).toBe("not a url");
  });
});
