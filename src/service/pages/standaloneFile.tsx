/** An HTML file on its own: its stylesheet inline, a Content-Security-Policy that loads and runs nothing. */
import type { Child } from "hono/jsx";
import { htmlDocument } from "./layout.js";

export function renderStandaloneFile(props: { title: string; css: string; body: Child }): string {
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta
          http-equiv="Content-Security-Policy"
          content="default-src 'none'; style-src 'unsafe-inline'"
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <style dangerouslySetInnerHTML={{ __html: props.css }} />
      </head>
      <body>{props.body}</body>
    </html>
  );
  return `${htmlDocument(page)}\n`;
}
