/**
 * The frame of every page: head (stylesheet from this origin only), header with sign-out, main;
 * an error as a reviewer reads it, alone (the error page) or above a form; and the pieces every
 * page uses (admins' details, moments, tables).
 */
import type { Child } from "hono/jsx";
import { timeStamp } from "../../timeText.js";
import type { ErrorBody } from "../errors.js";

export function Layout(props: {
  title: string;
  /** Absent on the sign-in page. */
  reviewer?: string | undefined;
  /** The session's CSRF token, for the sign-out form. */
  csrf?: string | undefined;
  head?: Child;
  /** A page of wide tables (calibration). */
  wide?: boolean;
  /** Scripts from this origin (the Content-Security-Policy forbids inline ones). */
  scripts?: string[];
  children?: Child;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · evalgate review`}</title>
        <link rel="stylesheet" href="/assets/review.css" />
        {props.head}
        {["/assets/page.js", ...(props.scripts ?? [])].map((src) => (
          <script src={src} defer />
        ))}
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/reviews">
            evalgate review
          </a>
          {props.reviewer !== undefined && props.csrf !== undefined ? (
            <form method="post" action="/signout" class="signout">
              <span class="who">{props.reviewer}</span>
              <input type="hidden" name="_csrf" value={props.csrf} />
              <button type="submit">Sign out</button>
            </form>
          ) : null}
        </header>
        <main class={props.wide === true ? "wide" : undefined}>{props.children}</main>
      </body>
    </html>
  );
}

/** The message as a sentence, without the trailing `[CODE]` the JSON API keeps. */
function errorWords(message: string): string {
  const words = message.replace(/\s*\[[A-Z][A-Z0-9_]*\]$/, "").trim();
  if (words === "") return "Something went wrong.";
  const sentence = `${words[0]?.toUpperCase() ?? ""}${words.slice(1)}`;
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

export function ErrorNotice(props: { error: ErrorBody["error"]; lead?: string; id?: string }) {
  const { error } = props;
  const field = error.field === undefined ? "" : `, field ${error.field}`;
  return (
    <>
      <p class="error-words" id={props.id}>
        {props.lead === undefined
          ? errorWords(error.message)
          : `${props.lead} ${errorWords(error.message)}`}
      </p>
      <p class="muted error-details">{`Details: ${error.code}${field}.`}</p>
    </>
  );
}

/** A whole page as a string with its doctype. */
export function htmlDocument(page: Child): string {
  return `<!doctype html>${String(page)}`;
}

/** Who is signed in: the header's name and the sign-out form's CSRF token. */
export interface SignedIn {
  reviewer: string;
  csrf: string;
}

function ErrorPage(props: { status: number; error: ErrorBody["error"]; who?: SignedIn }) {
  return (
    <Layout title={`Error ${props.status}`} reviewer={props.who?.reviewer} csrf={props.who?.csrf}>
      <section class="error-page" role="alert">
        <h1>{ERROR_HEADINGS[props.status] ?? "Something went wrong"}</h1>
        <ErrorNotice error={props.error} />
        <p>
          <a href="/reviews">Back to the queue</a>
        </p>
      </section>
    </Layout>
  );
}

const ERROR_HEADINGS: Readonly<Record<number, string>> = {
  400: "That request could not be used",
  401: "Please sign in",
  403: "This is not open to you",
  404: "Not found",
  409: "This has moved on",
  413: "That is too large",
  422: "That request could not be used",
};

export function renderErrorPage(status: number, error: ErrorBody["error"], who?: SignedIn): string {
  return htmlDocument(<ErrorPage status={status} error={error} who={who} />);
}

/* Technical details, collapsed, for admins only: other reviewers never receive them. */
export function AdminDetails(props: {
  admin: boolean;
  id: string;
  items: readonly string[];
  children?: Child;
}) {
  if (!props.admin || (props.items.length === 0 && props.children === undefined)) return null;
  return (
    <details class="admin-details" id={props.id}>
      <summary>Technical details (administrators)</summary>
      {props.items.length > 0 ? (
        <ul>
          {props.items.map((item) => (
            <li>
              <code>{item}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {props.children}
    </details>
  );
}

/* A moment: `<time datetime>` with UTC text, which the pages' script shows in the reader's zone. */
/** "2026-05-04 10:12 UTC" (with seconds: "2026-05-04 10:12:03 UTC"); unreadable input as given. */
export function utcText(iso: string, seconds = false): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : timeStamp(instant, { seconds });
}

export function Time(props: { iso: string; seconds?: boolean }) {
  const instant = new Date(props.iso);
  const valid = !Number.isNaN(instant.getTime());
  return (
    <time
      datetime={valid ? instant.toISOString() : undefined}
      data-seconds={props.seconds === true ? "true" : undefined}
    >
      {utcText(props.iso, props.seconds)}
    </time>
  );
}

/* A table of the pages: a heading per column, a row per item, a cell per column. */
/** The columns by heading, in order: each turns an item into its cell. */
export type Columns<T> = Readonly<Record<string, (item: T) => Child>>;

export function DataTable<T>(props: {
  columns: Columns<T>;
  items: readonly T[];
  id?: string;
  class?: string;
  /** A class for some cells, by the column's heading. */
  cellClass?: Readonly<Record<string, (item: T) => string | undefined>>;
  /** The `data-stage` of an item's row. */
  rowStage?: (item: T) => string;
}) {
  const headings = Object.keys(props.columns);
  return (
    <table class={props.class ?? "queue"} id={props.id}>
      <thead>
        <tr>
          {headings.map((heading) => (
            <th>{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <tr data-stage={props.rowStage?.(item)}>
            {headings.map((heading) => (
              <td class={props.cellClass?.[heading]?.(item)}>{props.columns[heading]?.(item)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
