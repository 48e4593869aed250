/**
 * Sessions and CSRF protection for the pages. Every form carries the session's CSRF token in
 * `_csrf`; a POST whose token does not match (compared in constant time) is refused with 403
 * before anything else happens. Pages that need a reviewer send the browser to sign in (303).
 */
import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import type { ServiceEnv } from "../env.js";
import { ServiceRequestError } from "../errors.js";
import type { SessionKeeper } from "../session.js";

/** Puts the session (a new one when the request has none) on the context. */
export function withSession(sessions: SessionKeeper) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    c.set("session", sessions.read(c));
    await next();
  });
}

/**
 * The reviewer of the session's sign-in, or a redirect to the sign-in page: asked of the store on
 * every request, so a session ended (sign-out, on any replica), expired or of a revoked reviewer
 * is refused at once, whatever copy of the cookie comes back.
 */
export function requireSignIn(desk: ReviewDesk) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    const { sessionId } = c.var.session;
    const reviewer = sessionId === undefined ? undefined : await desk.sessionReviewer(sessionId);
    if (reviewer === undefined) return c.redirect("/signin", 303);
    c.set("reviewer", reviewer);
    await next();
  });
}

function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(given, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A form's text fields, and the files of the fields that take one. */
export interface CheckedForm {
  fields: Record<string, string>;
  files: Record<string, File>;
}

/**
 * The form's text fields and the files of `fileFields` (a file anywhere else is refused), after
 * its CSRF token was checked.
 */
export async function checkedUpload(
  c: Context<ServiceEnv>,
  fileFields: readonly string[],
): Promise<CheckedForm> {
  const body = await c.req.parseBody().catch(() => {
    throw new ServiceRequestError("INVALID_INPUT", "the form could not be read");
  });
  const form: CheckedForm = { fields: {}, files: {} };
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") form.fields[name] = value;
    else if (value instanceof File && fileFields.includes(name)) form.files[name] = value;
    else throw new ServiceRequestError("INVALID_INPUT", "files are not accepted here", name);
  }
  const given = form.fields._csrf ?? "";
  if (!sameToken(c.var.session.csrf, given)) {
    throw new ServiceRequestError(
      "CSRF_REJECTED",
      "the form is stale or came from another site: reload the page and try again",
      "_csrf",
    );
  }
  delete form.fields._csrf;
  return form;
}

/** The form's text fields (files are refused), after its CSRF token was checked. */
export async function checkedForm(c: Context<ServiceEnv>): Promise<Record<string, string>> {
  return (await checkedUpload(c, [])).fields;
}
