/**
 * What the service refuses before a handler runs: unknown tokens past the limit per client address
 * and sign-ins past the limit per account (429 with Retry-After, counted in the store, so a second
 * app on the same database refuses too); cookie-carrying writes from another origin (403); JSON
 * bodies not sent as application/json (415); whole numbers in the query written any other way than
 * in decimal digits (400).
 */
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApp } from "../../src/service/app.js";
import type { ServiceEnv } from "../../src/service/env.js";
import { PageClient } from "./pageClient.js";
import { openRealDesk, type RealDesk } from "./realDesk.js";

const WINDOW = { windowSeconds: 600 };

describe("requests refused at the door", () => {
  let real: RealDesk;
  let ana: string;
  let lee: string;

  beforeAll(async () => {
    real = await openRealDesk();
    ana = await real.addReviewer("ana");
    lee = await real.addReviewer("lee", "admin");
  }, 120_000);

  afterAll(async () => real?.close(), 60_000);

  const api = (app: Hono<ServiceEnv>, path: string, init: RequestInit = {}) =>
    app.request(`http://127.0.0.1/api${path}`, init);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("answers 429 with Retry-After to an address past its unknown tokens, on every app of the store", async () => {
    const one = createServiceApp({ desk: real.desk, attemptLimits: { ...WINDOW, perAddress: 3 } });
    const two = createServiceApp({ desk: real.desk, attemptLimits: { ...WINDOW, perAddress: 3 } });
    const answers: number[] = [];
    for (const app of [one, two, one]) {
      answers.push((await api(app, "/reviews", { headers: bearer("egr_wrong") })).status);
    }
    const refused = await api(two, "/reviews", { headers: bearer("egr_wrong") });
    answers.push(refused.status);
    expect(answers).toEqual([401, 401, 401, 429]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      "TOO_MANY_ATTEMPTS",
    );
    // The address is refused whatever it sends now, a valid token too, and the sign-in page.
    expect((await api(one, "/reviews", { headers: bearer(ana) })).status).toBe(429);
    const page = new PageClient(one);
    const csrf = PageClient.csrfOf(await (await page.get("/signin")).text());
    const signIn = await page.post("/signin", { _csrf: csrf, token: ana });
    expect(signIn.status).toBe(429);
    expect(signIn.headers.get("retry-after")).not.toBeNull();
  });

  it("refuses an account's sign-ins past its limit per window", async () => {
    // A fresh store for this count: the address above is refused already.
    const fresh = await openRealDesk();
    try {
      const token = await fresh.addReviewer("cy");
      const app = createServiceApp({
        desk: fresh.desk,
        attemptLimits: { ...WINDOW, perAccount: 2 },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const page = new PageClient(app);
        const csrf = PageClient.csrfOf(await (await page.get("/signin")).text());
        statuses.push((await page.post("/signin", { _csrf: csrf, token })).status);
      }
      expect(statuses).toEqual([303, 303, 429]);
    } finally {
      await fresh.close();
    }
  });

  it("refuses a cookie-carrying write from another origin, and lets a bearer call without one through", async () => {
    const app = createServiceApp({ desk: real.desk });
    const page = new PageClient(app);
    const csrf = await page.signIn(lee);
    const post = (headers: Record<string, string>) =>
      app.request("http://127.0.0.1/signout", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: page.cookie,
          host: "127.0.0.1",
          ...headers,
        },
        body: new URLSearchParams({ _csrf: csrf }).toString(),
      });
    expect((await post({ origin: "http://evil.example" })).status).toBe(403);
    expect((await post({ origin: "null" })).status).toBe(403);
    expect((await post({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(await (await post({ origin: "http://evil.example" })).text()).toContain(
      "ORIGIN_REJECTED",
    );
    // Behind a proxy that addresses the replica by another host, the host the browser asked
    // for comes in X-Forwarded-Host (docs/deployment.md); without it the origin does not match.
    const proxied = { host: "10.0.0.5:8080", origin: "https://reviews.example.org" };
    expect((await post(proxied)).status).toBe(403);
    const forwarded = { ...proxied, "x-forwarded-host": "reviews.example.org" };
    expect((await post(forwarded)).status).toBe(303);
    // The same form from the service's own page is taken.
    expect((await post({ origin: "http://127.0.0.1" })).status).toBe(303);
    const started = await api(app, "/proposals", {
      method: "POST",
      headers: { ...bearer(lee), "content-type": "application/json" },
      body: JSON.stringify({ rfp: "An RFP.", applicant: "An applicant." }),
    });
    expect(started.status).toBe(202);
  });

  it("takes a JSON body only as application/json", async () => {
    const app = createServiceApp({ desk: real.desk });
    const body = JSON.stringify({ rfp: "An RFP.", applicant: "An applicant." });
    const sent = (type: string | undefined) =>
      api(app, "/proposals", {
        method: "POST",
        headers: { ...bearer(lee), ...(type === undefined ? {} : { "content-type": type }) },
        body,
      });
    const plain = await sent("text/plain");
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe(
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expect((await sent("application/x-www-form-urlencoded")).status).toBe(415);
    expect((await sent(undefined)).status).toBe(415);
    expect((await sent("application/json; charset=utf-8")).status).toBe(202);
  });

  it("reads whole numbers in the query from decimal digits only", async () => {
    const app = createServiceApp({ desk: real.desk });
    const limit = async (value: string) =>
      (await api(app, `/reviews?limit=${value}`, { headers: bearer(lee) })).status;
    const refused = ["1e3", "0x10", "%2010", "10.0", "+5", "010", "-1", ""];
    expect(await Promise.all(refused.map(limit))).toEqual(refused.map(() => 400));
    expect(await limit("10")).toBe(200);
    const page = new PageClient(app);
    await page.signIn(lee);
    expect((await page.get("/calibration?days=1e3")).status).toBe(400);
    expect((await page.get("/calibration?days=30")).status).toBe(200);
  });
});
