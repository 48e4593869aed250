/**
 * Signing out ends the session on the server: a copy of the cookie taken before sign-out and sent
 * again afterwards is sent to sign in (pages) and refused (the page session's JSON), on SQLite and
 * on PostgreSQL with two replicas sharing the database and the session secret (signed out on one,
 * replayed on the other). Revoking a reviewer ends their sessions too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { createServiceApp } from "../../src/service/app.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";
import { PageClient } from "./pageClient.js";
import { openRealDesk, type RealDesk } from "./realDesk.js";

type App = ReturnType<typeof createServiceApp>;
const SECRET = "a session secret shared by the replicas";

/** Signs in on `signInOn`, copies the cookie, signs out on `signOutOn`, replays it on `replayOn`. */
async function signOutAndReplay(signInOn: App, signOutOn: App, replayOn: App, token: string) {
  const client = new PageClient(signInOn);
  const csrf = await client.signIn(token);
  const copied = client.cookie;
  expect((await client.get("/reviews")).status).toBe(200);

  const leaving = new PageClient(signOutOn);
  leaving.cookie = copied;
  const out = await leaving.post("/signout", { _csrf: csrf });
  expect(out.status).toBe(303);
  expect(out.headers.get("location")).toBe("/signin");
  expect(leaving.lastSetCookie).toMatch(/^evalgate_session=;/);

  const replay = new PageClient(replayOn);
  replay.cookie = copied;
  for (const path of ["/reviews", "/threads/t1", "/threads/t1/traces"]) {
    const answer = await replay.get(path);
    expect(answer.status, path).toBe(303);
    expect(answer.headers.get("location"), path).toBe("/signin");
  }
  // A form posted with the old cookie and its CSRF token is refused the same way.
  const posted = await replay.post("/reviews/t1/decisions", {
    _csrf: csrf,
    interruptId: "i1",
    action: "approve",
  });
  expect(posted.status).toBe(303);
  expect(posted.headers.get("location")).toBe("/signin");
}

describe("sign-out on SQLite", () => {
  let real: RealDesk;
  let app: App;

  beforeAll(async () => {
    real = await openRealDesk();
    app = createServiceApp({ desk: real.desk, logError: () => {}, sessionSecret: SECRET });
  }, 60_000);
  afterAll(async () => {
    await real?.close();
  });

  it("ends the session: the copied cookie is sent to sign in", async () => {
    const token = await real.addReviewer("ana");
    await signOutAndReplay(app, app, app, token);
  });

  it("ends only that session: another browser's sign-in of the same reviewer stays", async () => {
    const token = await real.addReviewer("bo");
    const other = new PageClient(app);
    await other.signIn(token);
    await signOutAndReplay(app, app, app, token);
    expect((await other.get("/reviews")).status).toBe(200);
  });

  it("ends the earlier session of a browser that signs in again", async () => {
    const token = await real.addReviewer("cy");
    const client = new PageClient(app);
    await client.signIn(token);
    const first = client.cookie;
    await client.signIn(token);
    expect((await client.get("/reviews")).status).toBe(200);
    const replay = new PageClient(app);
    replay.cookie = first;
    expect((await replay.get("/reviews")).headers.get("location")).toBe("/signin");
  });

  it("ends every session of a reviewer who is revoked", async () => {
    const token = await real.addReviewer("dee");
    const client = new PageClient(app);
    await client.signIn(token);
    expect((await client.get("/reviews")).status).toBe(200);
    expect(await real.desk.store.revokeReviewer("dee")).toBe(true);
    const after = await client.get("/reviews");
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/signin");
  });

  it("refuses a cookie sealed with another secret, and a forged session id", async () => {
    const token = await real.addReviewer("eve");
    const client = new PageClient(app);
    await client.signIn(token);
    const elsewhere = createServiceApp({ desk: real.desk, logError: () => {}, sessionSecret: "x" });
    const replay = new PageClient(elsewhere);
    replay.cookie = client.cookie;
    expect((await replay.get("/reviews")).headers.get("location")).toBe("/signin");
    expect(await real.desk.sessionReviewer("not-a-session")).toBeUndefined();
    expect(await real.desk.sessionReviewer("")).toBeUndefined();
    expect(await real.desk.sessionReviewer("x".repeat(10_000))).toBeUndefined();
  });
});

describe("sign-out on PostgreSQL, across replicas", () => {
  let cluster: PostgresCluster;
  const desks: ReviewDeskHandle[] = [];
  const apps: App[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    for (let i = 0; i < 2; i++) {
      const desk = await createReviewDesk({
        databaseUrl: cluster.url,
        env: {},
        jobs: { run: false },
      });
      desks.push(desk);
      apps.push(createServiceApp({ desk, logError: () => {}, sessionSecret: SECRET }));
    }
  }, 300_000);
  afterAll(async () => {
    for (const desk of desks) await desk.close();
    await cluster?.stop();
  }, 60_000);

  it("a session signed out on one replica is refused by the other", async () => {
    const [a, b] = apps as [App, App];
    const token = newReviewerToken();
    await desks[0]?.store.addReviewer(`ana-${Date.now()}`, "reviewer", hashToken(token));
    // Both replicas accept the session while it is open.
    const client = new PageClient(a);
    await client.signIn(token);
    const onB = new PageClient(b);
    onB.cookie = client.cookie;
    expect((await onB.get("/reviews")).status).toBe(200);
    await signOutAndReplay(a, a, b, token);
    await signOutAndReplay(b, a, b, token);
    await signOutAndReplay(a, b, a, token);
  });
});
