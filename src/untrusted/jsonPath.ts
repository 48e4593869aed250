/** A path into a decoded document: object keys and array indices. */
export type JsonPath = ReadonlyArray<string | number>;

/** A path as a JSON path: `$.criteria[2]["odd key"]`. */
export function formatJsonPath(path: JsonPath): string {
  let out = "$";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
