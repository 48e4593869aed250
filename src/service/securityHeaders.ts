/**
 * The security headers of every answer (scripts, styles and connections from this origin only), and
 * the origin check of writes that carry cookies.
 */
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { ServiceEnv } from "./env.js";
import { ServiceRequestError } from "./errors.js";

export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    referrerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
    strictTransportSecurity: false,
  });
}

/** No copy of a reviewer's page is kept to show after sign-out; only the assets are the same for everyone. */
export function noStore() {
  return createMiddleware(async (c, next) => {
    await next();
    if (c.req.path.startsWith("/assets/") && c.res.status === 200) return;
    c.res.headers.set("Cache-Control", "no-store");
  });
}

/*
 * A write carrying cookies must come from this service's pages: its `Origin` names this host, or
 * without one its `Sec-Fetch-Site` says same-origin or none (ORIGIN_REJECTED otherwise).
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const SAME_SITE_FETCH = new Set(["same-origin", "none"]);

/** The host the client addressed: a proxy's X-Forwarded-Host, else Host. */
function requestHost(header: (name: string) => string | undefined): string | undefined {
  const forwarded = header("x-forwarded-host")?.split(",")[0]?.trim();
  return (forwarded === undefined || forwarded === "" ? header("host") : forwarded)?.toLowerCase();
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

function refused(what: string): ServiceRequestError {
  return new ServiceRequestError(
    "ORIGIN_REJECTED",
    `${what}: a request with this service's cookies must come from its own pages`,
  );
}

export function sameOriginWrites() {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    const header = (name: string) => c.req.header(name);
    if (SAFE_METHODS.has(c.req.method) || header("cookie") === undefined) return next();
    const origin = header("origin");
    if (origin !== undefined) {
      const host = originHost(origin);
      if (host === undefined || host !== requestHost(header)) throw refused(`from ${origin}`);
      return next();
    }
    const site = header("sec-fetch-site");
    if (site !== undefined && !SAME_SITE_FETCH.has(site)) throw refused(`from a ${site} page`);
    return next();
  });
}
