/**
 * Sessions and CSRF protection for the pages: a POST whose `_csrf` does not match the session's
 * (compared in constant time) is refused with 403 before anything else happens.
 */
import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import type { ServiceEnv } from "../env.js";
import { ServiceRequestError } from "../errors.js";
import type { SessionKeeper } from "../session.js";
import { htmlDocument } from "./layout.js";

/** The page's reader: the signed-in reviewer, the session's CSRF token, whether an admin. */
export function readerOf(c: Context<ServiceEnv>) {
  const { name, role } = c.var.reviewer;
  return { reviewer: name, csrf: c.var.session.csrf, admin: role === "admin" };
}

export function pageResponse(c: Context, page: Child, status?: ContentfulStatusCode) {
  return c.html(htmlDocument(page), status);
}

/** Puts the session (a new one when the request has none) on the context. */
export function withSession(sessions: SessionKeeper) {
  return createMiddleware<ServiceEnv>(async (c, next) => {
    c.set("session", sessions.read(c));
    await next();
  });
}

/** Asked of the store on every request: a session ended on any replica is refused at once. */
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

export interface CheckedForm {
  fields: Record<string, string>;
  files: Record<string, File>;
}

/** Line breaks as `\n` (a browser sends a text area's as `\r\n`). */
export const unixLines = (text: string) => text.replace(/\r\n?/g, "\n");

/** The form's text fields (line breaks as `\n`) and the files of `fileFields` (refused anywhere else), CSRF checked. */
export async function checkedUpload(
  c: Context<ServiceEnv>,
  fileFields: readonly string[],
): Promise<CheckedForm> {
  const body = await c.req.parseBody().catch(() => {
    throw new ServiceRequestError("INVALID_INPUT", "the form could not be read");
  });
  const form: CheckedForm = { fields: {}, files: {} };
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") form.fields[name] = unixLines(value);
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

export async function checkedForm(c: Context<ServiceEnv>): Promise<Record<string, string>> {
  return (await checkedUpload(c, [])).fields;
}
