/** The frame of every page: head (stylesheet from this origin only), header with sign-out, main. */
import type { Child } from "hono/jsx";

export interface LayoutProps {
  title: string;
  /** The signed-in reviewer's name; absent on the sign-in page. */
  reviewer?: string;
  /** The session's CSRF token, for the sign-out form. */
  csrf?: string;
  /** Extra head elements (the progress page's refresh for browsers without JavaScript). */
  head?: Child;
  /** Scripts from this origin (no inline script: the Content-Security-Policy forbids it). */
  scripts?: string[];
  children?: Child;
}

export function Layout(props: LayoutProps) {
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
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/** A whole page as a string with its doctype. */
export function htmlDocument(page: Child): string {
  return `<!doctype html>${String(page)}`;
}

export function ErrorPage(props: { status: number; message: string }) {
  return (
    <Layout title={`Error ${props.status}`}>
      <section class="error-page" role="alert">
        <h1>{`Error ${props.status}`}</h1>
        <p>{props.message}</p>
        <p>
          <a href="/reviews">Back to the queue</a>
        </p>
      </section>
    </Layout>
  );
}

export function renderErrorPage(status: number, message: string): string {
  return htmlDocument(<ErrorPage status={status} message={message} />);
}
