/**
 * Markdown as HTML, by markdown-it: CommonMark with GFM tables and strikethrough, raw HTML off (a
 * tag in the text is shown as text), no link made from a bare address, links and images only to
 * http, https and mailto (any other link stays the text it was written as), images shown as their
 * alt text (a page loads nothing from elsewhere), and headings moved under the page's own: a
 * section's `#` is an h4, `##` an h5, deeper ones h6. Tables sit in a container that scrolls on
 * its own, so a wide one never widens the page.
 */
import MarkdownIt from "markdown-it";

/** The schemes a link may use. */
const LINK_SCHEMES = /^(?:https?:|mailto:)/i;

/** A section's heading level on the page: under the page's h1–h3. */
function pageHeadingTag(markdownTag: string): string {
  const level = Number(markdownTag.slice(1));
  return `h${Math.min(6, level + 3)}`;
}

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
        token.tag = pageHeadingTag(token.tag);
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

/** The HTML of a Markdown text (see the module's description); everything in it is escaped. */
export function markdownHtml(markdown: string): string {
  return renderer.render(markdown);
}
