/**
 * What a reader sees of an HTML page, for tests: the text of its elements with the tags and the
 * stylesheet taken out and the five entities that escaping writes turned back into characters.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&amp;": "&",
};

export function htmlText(html: string): string {
  return html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/gi, "")
    .replace(/<[^>]*>/g, "")
    .replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * The tags of a page that carry an event-handler attribute (`onclick=`, `onload=` …), quoted or
 * not; text that merely reads like a handler, inside a double-quoted value (as the JSX renderer
 * writes every value) or between tags, is not counted.
 */
export function tagsWithHandlers(html: string): string[] {
  const tag = /<[a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9:-]*(?:=(?:"[^"]*"|[^\s>"]+))?)*\s*\/?>/gi;
  return [...html.matchAll(tag)]
    .map((match) => match[0])
    .filter((text) => /\son[a-z]+=/i.test(text.replace(/="[^"]*"/g, '=""')));
}
