/**
 * The deepest nesting a JSON document from outside may have: far beyond any real document, far
 * below a stack.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Where JSON text first nests deeper than `maxDepth` (objects and arrays, outside strings), found in
 * one linear pass before any recursive parser sees the text; undefined when it never does.
 */
export function firstTooDeep(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
): { offset: number; line: number } | undefined {
  let depth = 0;
  let line = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > maxDepth) return { offset: i, line };
    } else if (c === 125 || c === 93) depth--;
  }
  return undefined;
}
