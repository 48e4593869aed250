/**
 * The security headers of every answer: a Content-Security-Policy that allows scripts, styles and
 * connections from this origin only (no inline script, no inline style, no frames, forms post here
 * only), nosniff, no framing, no referrer beyond the origin, and no caching of pages that hold
 * a reviewer's data.
 */
import { secureHeaders } from "hono/secure-headers";

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
