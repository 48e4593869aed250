/**
 * Markdown as HTML by markdown-it: raw HTML off, links only to http, https and mailto, images as
 * their alt text (a page loads nothing from elsewhere), a section's `#` as h4 (under the page's
 * h1–h3), tables in a container that scrolls on its own.
 */
import MarkdownIt from "markdown-it";

const LINK_SCHEMES = /^(?:https?:|mailto:)/i;

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt("default", {
    html: false,
    linkify: false,
    typographer: false,
    breaks: false,
  });
  md.validateLink = (url) => LINK_SCHEMES.test(url.trim());
  md.disable("image");
  md.core.ruler.push("evalgate_page_shape", (state) => {
    for (const token of state.tokens) {
      if (token.type === "heading_open" || token.type === "heading_close") {
        token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 3)}`;
      }
    }
  });
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, index, options) => {
    tokens[index]?.attrSet("rel", "nofollow noopener noreferrer");
    return renderToken(tokens, index, options);
  };
  md.renderer.rules.table_open = (tokens, index, options) =>
    `<div class="table-scroll">${renderToken(tokens, index, options)}`;
  md.renderer.rules.table_close = (tokens, index, options) =>
    `${renderToken(tokens, index, options)}</div>`;
  return md;
}

const renderer = createRenderer();

export function markdownHtml(markdown: string): string {
  return renderer.render(markdown);
}
