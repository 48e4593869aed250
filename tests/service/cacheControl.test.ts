/**
 * `Cache-Control: no-store` on every answer that may hold a reviewer's data: every route the app
 * registers (read from the app itself, so a route added later is covered), as a signed-in browser
 * and as a bearer client sees it, its successes, refusals and redirects alike; only the static
 * assets may be kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApp } from "../../src/service/app.js";
import { PageClient } from "./pageClient.js";
import { eventually, openRealDesk, type RealDesk } from "./realDesk.js";

let real: RealDesk;
let app: ReturnType<typeof createServiceApp>;
let token: string;
let threadId: string;

beforeAll(async () => {
  real = await openRealDesk();
  // Event streams end quickly, so reading their headers does not keep a stream open.
  app = createServiceApp({
    desk: real.desk,
    logError: () => {},
    events: { pollMs: 10, maxStreamMs: 50 },
  });
  token = await real.addReviewer("ana", "admin");
  const reviewer = (await real.desk.authenticate(token))!;
  ({ threadId } = await real.desk.startProposal(
    { rfp: "Caching\nFlood resilience grants.", applicant: "Harbour Trust" },
    reviewer,
  ));
  await eventually("the first review", async () =>
    (await real.desk.threadStatus(threadId, reviewer)).status === "waiting" ? true : undefined,
  );
}, 60_000);

afterAll(async () => {
  await real?.close();
});

/** The app's own routes: method and path, without middleware entries. */
function registeredRoutes(): Array<{ method: string; path: string }> {
  const seen = new Set<string>();
  return app.routes
    .filter((r) => r.method !== "ALL" && !r.path.includes("*"))
    .filter((r) => {
      const key = `${r.method} ${r.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((r) => ({ method: r.method, path: r.path.replace(":threadId", threadId) }));
}

async function answerOf(client: PageClient, method: string, path: string): Promise<Response> {
  if (path.startsWith("/api/")) {
    const response = await app.request(`http://127.0.0.1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(method === "POST" ? { body: "{}" } : {}),
    });
    return response;
  }
  return method === "POST" ? client.post(path, {}) : client.get(path);
}

describe("Cache-Control", () => {
  it("is no-store on every route but the assets, signed in, with a bearer token, and anonymous", async () => {
    const routes = registeredRoutes();
    // The routes the review pages and the API are known to have are among them.
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      "GET /reviews",
      `GET /reviews/${threadId}`,
      `POST /reviews/${threadId}/decisions`,
      `GET /threads/${threadId}`,
      `GET /threads/${threadId}/events`,
      "GET /api/reviews",
      `GET /api/threads/${threadId}`,
      "GET /assets/review.css",
    ]) {
      expect(listed).toContain(expected);
    }
    const signedIn = new PageClient(app);
    await signedIn.signIn(token);
    const anonymous = new PageClient(app);
    for (const { method, path } of routes) {
      for (const client of [signedIn, anonymous]) {
        const response = await answerOf(client, method, path);
        await response.body?.cancel();
        const cacheControl = response.headers.get("cache-control");
        if (path.startsWith("/assets/")) {
          expect(response.status, path).toBe(200);
          expect(cacheControl, path).toBe("public, max-age=300");
        } else {
          expect(cacheControl, `${method} ${path} (${response.status})`).toBe("no-store");
        }
      }
    }
  });

  it("is no-store on a page of the review and its JSON, and on an unknown route", async () => {
    const client = new PageClient(app);
    await client.signIn(token);
    const review = await client.get(`/reviews/${threadId}`);
    expect(review.status).toBe(200);
    expect(review.headers.get("cache-control")).toBe("no-store");
    const missing = await client.get("/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-store");
    const missingAsset = await client.get("/assets/missing.js");
    expect(missingAsset.status).toBe(404);
    expect(missingAsset.headers.get("cache-control")).toBe("no-store");
  });
});
