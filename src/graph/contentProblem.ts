/** `connection_pairs` → `Connection Pairs`. */
export function humanReadable(contentType: string): string {
  return contentType
    .split(/[_\-\s]+|(?=[A-Z])/)
    .filter((w) => w !== "")
    .map((w) => w[0]?.toUpperCase() + w.slice(1).toLowerCase())
    .join(" ");
}

/** Why the content cannot be evaluated (checked before any model call), or undefined. */
export function contentProblem(content: unknown): string | undefined {
  if (content === undefined || content === null) return "there is no content to evaluate";
  if (typeof content === "string") {
    return content.trim() === "" ? "the content is empty" : undefined;
  }
  if (typeof content !== "object") {
    return `the content is a ${typeof content}, not text or structured data`;
  }
  if (Array.isArray(content))
    return content.length === 0 ? "the content is an empty list" : undefined;
  return Object.keys(content).length === 0 ? "the content is an empty object" : undefined;
}
