/**
 * A browser-like client for `app.request()`: keeps the session cookie, reads the CSRF token from
 * the page's forms, and posts forms as a browser without JavaScript would.
 */
import type { Hono } from "hono";
import type { ServiceEnv } from "../../src/service/env.js";

export class PageClient {
  cookie = "";
  lastSetCookie = "";

  constructor(
    private readonly app: Hono<ServiceEnv>,
    private readonly origin = "http://127.0.0.1",
  ) {}

  private remember(response: Response): Response {
    const setCookie = response.headers.get("set-cookie");
    if (setCookie !== null) {
      this.lastSetCookie = setCookie;
      const pair = setCookie.split(";")[0] ?? "";
      this.cookie = pair.endsWith("=") ? "" : pair;
    }
    return response;
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await this.app.request(`${this.origin}${path}`, {
      headers: { accept: "text/html", ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
    });
    return this.remember(response);
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    const response = await this.app.request(`${this.origin}${path}`, {
      method: "POST",
      headers: {
        accept: "text/html",
        "content-type": "application/x-www-form-urlencoded",
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
    return this.remember(response);
  }

  /** Posts a multipart form (text fields and files), as a browser does for a form with files. */
  async postMultipart(path: string, form: FormData): Promise<Response> {
    const response = await this.app.request(`${this.origin}${path}`, {
      method: "POST",
      headers: { accept: "text/html", ...(this.cookie ? { cookie: this.cookie } : {}) },
      body: form,
    });
    return this.remember(response);
  }

  /** The CSRF token in a page's forms. */
  static csrfOf(html: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(html);
    if (match?.[1] === undefined) throw new Error("the page has no CSRF field");
    return match[1];
  }

  /** Signs in with the token through the sign-in form; returns the session's CSRF token. */
  async signIn(token: string): Promise<string> {
    const form = await this.get("/signin");
    const response = await this.post("/signin", {
      _csrf: PageClient.csrfOf(await form.text()),
      token,
    });
    if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
    const queue = await this.get("/reviews");
    return PageClient.csrfOf(await queue.text());
  }
}
