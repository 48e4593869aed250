/**
 * One access rule per resource, for the API and the pages alike (src/service/access.ts): every
 * route the app serves is listed under a resource, and each listed route, tried as each role —
 * anonymous, a reviewer assigned to the thread, a reviewer who is not, an admin — is refused or
 * let through exactly as its resource's audience says.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESS_RULES, type Audience, type Resource } from "../../src/service/access.js";
import { createServiceApp } from "../../src/service/app.js";
import type { ServiceEnv } from "../../src/service/env.js";
import { PageClient } from "./pageClient.js";
import { openRealDesk, type RealDesk } from "./realDesk.js";

type Role = "anonymous" | "assigned" | "stranger" | "admin";
type Outcome = "signin" | "forbidden" | "through";

const ROLES: readonly Role[] = ["anonymous", "assigned", "stranger", "admin"];

function expected(audience: Audience, role: Role): Outcome {
  if (audience === "anyone") return "through";
  if (role === "anonymous") return "signin";
  if (audience === "signed-in") return "through";
  if (audience === "assigned") return role === "stranger" ? "forbidden" : "through";
  return role === "admin" ? "through" : "forbidden";
}

/** A body each POST route takes the shape of (so a refusal is about access, not the body). */
function bodyOf(path: string): Record<string, string> {
  if (path.endsWith("/decisions")) return { interruptId: "no-such-review", action: "approve" };
  if (path.endsWith("/reviewers")) return { name: "ana" };
  if (path === "/proposals") return { rfp: "An RFP.", applicant: "An applicant." };
  return {};
}

async function outcomeOf(response: Response, api: boolean): Promise<Outcome> {
  await response.body?.cancel();
  if (api && response.status === 401) return "signin";
  if (!api && response.status === 303 && response.headers.get("location") === "/signin") {
    return "signin";
  }
  return response.status === 403 ? "forbidden" : "through";
}

describe("who may reach what, page and API alike", () => {
  let real: RealDesk;
  let app: Hono<ServiceEnv>;
  let threadId: string;
  const tokens = new Map<Role, string>();

  beforeAll(async () => {
    real = await openRealDesk();
    app = createServiceApp({ desk: real.desk, attemptLimits: { perAccount: 10_000 } });
    tokens.set("assigned", await real.addReviewer("ana"));
    tokens.set("stranger", await real.addReviewer("bo"));
    tokens.set("admin", await real.addReviewer("lee", "admin"));
    const started = await real.desk.startProposal(
      { rfp: "Calder Bay Community Foundation.", applicant: "A tenants' union." },
      { name: "ana", role: "reviewer" },
    );
    threadId = started.threadId;
  }, 120_000);

  afterAll(async () => real?.close(), 60_000);

  it("lists every route the app serves under one resource", () => {
    const listed = new Set(
      Object.values(ACCESS_RULES).flatMap((rule) => [
        ...rule.api.map((route) => route.replace(" ", " /api")),
        ...rule.pages,
      ]),
    );
    const served = new Set(
      app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`),
    );
    expect([...served].filter((route) => !listed.has(route))).toEqual([]);
    expect([...listed].filter((route) => !served.has(route))).toEqual([]);
  });

  it("is the table docs/security.md shows, row for row", () => {
    const page = readFileSync(join(import.meta.dirname, "../../docs/security.md"), "utf8");
    const code = (routes: readonly string[], prefix: string) =>
      routes.map((r) => `\`${r.replace(" ", ` ${prefix}`)}\``).join(", ") || "—";
    const missing = Object.entries(ACCESS_RULES)
      .map(
        ([resource, rule]) =>
          `| ${resource} | ${rule.action} | ${rule.audience} | ${code(rule.api, "/api")} | ${code(rule.pages, "")} |`,
      )
      .filter((row) => !page.includes(row));
    expect(missing).toEqual([]);
  });

  async function tryApi(role: Role, route: string): Promise<Outcome> {
    const [method, template] = route.split(" ") as [string, string];
    const path = template.replace(":threadId", threadId);
    const token = tokens.get(role);
    const headers: Record<string, string> =
      token === undefined ? {} : { authorization: `Bearer ${token}` };
    const post = method === "POST";
    if (post) headers["content-type"] = "application/json";
    const response = await app.request(`http://127.0.0.1/api${path}`, {
      method,
      headers,
      ...(post ? { body: JSON.stringify(bodyOf(template)) } : {}),
    });
    return outcomeOf(response, true);
  }

  async function tryPage(role: Role, route: string): Promise<Outcome> {
    const [method, template] = route.split(" ") as [string, string];
    const path = template.replace(":threadId", threadId);
    const client = new PageClient(app);
    const token = tokens.get(role);
    const csrf =
      token === undefined
        ? PageClient.csrfOf(await (await client.get("/signin")).text())
        : await client.signIn(token);
    const response =
      method === "POST"
        ? await client.post(path, { _csrf: csrf, ...bodyOf(template) })
        : await client.get(path);
    return outcomeOf(response, false);
  }

  for (const [resource, rule] of Object.entries(ACCESS_RULES) as Array<
    [Resource, (typeof ACCESS_RULES)[Resource]]
  >) {
    it(`${resource} (${rule.audience}): every route, as every role`, async () => {
      const seen: string[] = [];
      const wanted: string[] = [];
      for (const role of ROLES) {
        for (const route of rule.api) {
          seen.push(`${role} API ${route}: ${await tryApi(role, route)}`);
          wanted.push(`${role} API ${route}: ${expected(rule.audience, role)}`);
        }
        for (const route of rule.pages) {
          seen.push(`${role} page ${route}: ${await tryPage(role, route)}`);
          // Signing out sends everyone to the sign-in page: that is its answer, not a refusal.
          const answer = route === "POST /signout" ? "signin" : expected(rule.audience, role);
          wanted.push(`${role} page ${route}: ${answer}`);
        }
      }
      expect(seen).toEqual(wanted);
    }, 60_000);
  }
});
