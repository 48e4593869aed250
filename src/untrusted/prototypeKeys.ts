/**
 * Keys that could reach a prototype in a decoded value (JSON, TOON, a request body), with their
 * path: the keys secure-json-parse refuses.
 */

export type JsonPath = ReadonlyArray<string | number>;

export function formatJsonPath(path: JsonPath): string {
  let out = "$";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

export interface PrototypeKey {
  readonly key: "__proto__" | "constructor";
  readonly path: JsonPath;
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/** A value met on the walk, with the way back to the root (paths are built only when needed). */
interface Visit {
  readonly node: unknown;
  readonly parent: Visit | undefined;
  readonly key: string | number | undefined;
}

function pathTo(visit: Visit, ...tail: string[]): JsonPath {
  const path: Array<string | number> = [...tail];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) {
    path.unshift(at.key);
  }
  return path;
}

export function findPrototypeKey(value: unknown): PrototypeKey | undefined {
  const stack: Visit[] = [{ node: value, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { node } = visit;
    if (!isObject(node)) continue;
    if (Object.hasOwn(node, "__proto__"))
      return { key: "__proto__", path: pathTo(visit, "__proto__") };
    const record = node as Record<string | number, unknown>;
    if (
      Object.hasOwn(node, "constructor") &&
      isObject(record.constructor) &&
      Object.hasOwn(record.constructor, "prototype")
    ) {
      return { key: "constructor", path: pathTo(visit, "constructor", "prototype") };
    }
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      stack.push({ node: record[key], parent: visit, key });
    }
  }
  return undefined;
}

export function prototypeKeyReason(found: PrototypeKey): string {
  return found.key === "__proto__"
    ? 'the key "__proto__" is not allowed (it would set the prototype of an object)'
    : 'a "constructor" key holding "prototype" is not allowed (it would reach a prototype)';
}
