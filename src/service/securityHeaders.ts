/**
 * The security headers of every answer: a Content-Security-Policy that allows scripts, styles and
 * connections from this origin only (no inline script, no inline style, no frames, forms post here
 * only), nosniff, no framing, no referrer beyond the origin, and no caching of anything that may
 * hold a reviewer's data.
 */
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";

/** Where the static assets are served: the only answers a browser or a proxy may keep. */
export const ASSETS_PATH = "/assets/";

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    referrerPolicy: "same-origin",
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
    strictTransportSecurity: false,
  });
}

/**
 * `Cache-Control: no-store` on every answer — pages, JSON, event streams, redirects and errors —
 * but the static assets (the stylesheet and the scripts, the same for everyone): neither the
 * browser nor a proxy keeps a copy of a reviewer's page to show after sign-out or to someone else.
 */
export function noStore() {
  return createMiddleware(async (c, next) => {
    await next();
    if (c.req.path.startsWith(ASSETS_PATH) && c.res.status === 200) return;
    c.res.headers.set("Cache-Control", "no-store");
  });
}
