/** The security headers of every answer: scripts, styles and connections from this origin only. */
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";

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
