import { type DecodeOptions, decodeStreamSync } from "@toon-format/toon";
import type { JsonPath } from "../untrusted/prototypeKeys.js";
import { readSourceLines } from "./sourceLines.js";

type Frame =
  | { readonly kind: "object"; readonly path: JsonPath; key: string | undefined }
  | { readonly kind: "array"; readonly path: JsonPath; next: number };

/**
 * The line each value of a spec TOON text starts on (path → 1-based line), by replaying the
 * spec decoder's events; the text must decode.
 */
export function indexValueLines(text: string, options: DecodeOptions): Map<string, number> {
  const sourceLines = readSourceLines(text);
  const firstContent = sourceLines.find((line) => line.kind === "content");
  // The decoder reads one line past the first root field before it reports that field.
  const rootIsPlainObject = firstContent !== undefined && !firstContent.content.startsWith("[");
  const lines = new Map<string, number>();
  const record = (path: JsonPath, line: number): void => {
    const key = JSON.stringify(path);
    if (!lines.has(key)) lines.set(key, line);
  };

  let pulled = 0;
  function* feed(): Generator<string> {
    for (const line of text.split("\n")) {
      pulled++;
      yield line;
    }
  }

  const stack: Frame[] = [];
  let rootKeys = 0;
  const openValue = (): JsonPath => {
    const top = stack[stack.length - 1];
    if (!top) {
      if (firstContent) record([], firstContent.number);
      return [];
    }
    if (top.kind === "array") {
      const path = [...top.path, top.next];
      top.next++;
      record(path, pulled);
      return path;
    }
    return [...top.path, top.key ?? ""];
  };

  for (const event of decodeStreamSync(feed(), options)) {
    switch (event.type) {
      case "key": {
        const top = stack[stack.length - 1];
        if (top?.kind !== "object") break;
        top.key = event.key;
        const atRoot = stack.length === 1;
        const firstRootField = atRoot && rootKeys === 0 && rootIsPlainObject;
        if (atRoot) rootKeys++;
        record(
          [...top.path, event.key],
          firstRootField ? (firstContent?.number ?? pulled) : pulled,
        );
        break;
      }
      case "startObject":
        stack.push({ kind: "object", path: openValue(), key: undefined });
        break;
      case "startArray":
        stack.push({ kind: "array", path: openValue(), next: 0 });
        break;
      case "primitive":
        openValue();
        break;
      case "endObject":
      case "endArray":
        stack.pop();
        break;
    }
  }
  return lines;
}
