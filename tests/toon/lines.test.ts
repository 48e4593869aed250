import { ToonDecodeError } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { decodeToon, decodeToonWithLines } from "../../src/toon/decode.js";
import { ToonError } from "../../src/toon/errors.js";

const IFB = [
  "# IFB PROFI Criteria Catalog", // 1
  "meta{version,program}:", // 2
  '1.0,"PROFI Standard"', // 3
  "", // 4
  "criteria[3,]{id,type,weight,title,prompt}:", // 5
  'c1,check,1.0,"Hamburg Base","Is the company based in Hamburg?"', // 6
  'c2,score,0.4,"Innovation","Rate the technological innovation (1-5)."', // 7
  'c3,score,0.6,"Market","Rate the market potential (1-5)."', // 8
].join("\n");

function thrown(run: () => unknown): ToonError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToonError) return error;
    throw error;
  }
  throw new Error("expected a ToonError, nothing was thrown");
}

describe("decodeToonWithLines: TOON criteria dialect", () => {
  const located = decodeToonWithLines(IFB, { stringFields: ["version"] });

  it("decodes the same value as decodeToon", () => {
    expect(located.value).toEqual(decodeToon(IFB, { stringFields: ["version"] }));
  });

  it("points an object header's fields at its one row", () => {
    expect(located.lineOf(["meta"])).toBe(2);
    expect(located.lineOf(["meta", "version"])).toBe(3);
    expect(located.lineOf(["meta", "program"])).toBe(3);
  });

  it("points table rows and their cells at original lines after the expanded object", () => {
    expect(located.lineOf(["criteria"])).toBe(5);
    expect(located.lineOf(["criteria", 0])).toBe(6);
    expect(located.lineOf(["criteria", 1, "title"])).toBe(7);
    expect(located.lineOf(["criteria", 2, "weight"])).toBe(8);
  });

  it("falls back to the nearest existing ancestor", () => {
    expect(located.lineOf(["criteria", 2, "weight", "deeper"])).toBe(8);
    expect(located.lineOf(["criteria", 1, "missing"])).toBe(7);
    expect(located.lineOf(["criteria", 9])).toBe(5);
    expect(located.lineOf(["nothing"])).toBe(2);
    expect(located.lineOf([])).toBe(2);
  });

  it("maps lines of a table rewritten as a list for its [a, b] cells", () => {
    const text = "# tags\n\nt[2,]{id,tags}:\na,[x, y]\nb,[]\nafter: 1";
    const result = decodeToonWithLines(text);
    expect(result.value).toEqual({
      t: [
        { id: "a", tags: ["x", "y"] },
        { id: "b", tags: [] },
      ],
      after: 1,
    });
    expect(result.lineOf(["t"])).toBe(3);
    expect(result.lineOf(["t", 0, "tags", 1])).toBe(4);
    expect(result.lineOf(["t", 1, "tags"])).toBe(5);
    expect(result.lineOf(["after"])).toBe(6);
  });

  it("keeps counting lines across comments and blank lines between flush blocks", () => {
    const text = [
      "", // 1
      "# results", // 2
      "results[2,]{id,score}:", // 3
      "c1,4", // 4
      "# end of rows", // 5
      "c2,3", // 6 — after a comment: not a row of results
    ].join("\n");
    expect(thrown(() => decodeToon(text)).line).toBe(4);
    const fixed = text.replace("# end of rows\n", "");
    const result = decodeToonWithLines(fixed);
    expect(result.lineOf(["results", 1, "score"])).toBe(5);
    expect(result.lineOf([])).toBe(3);
  });
});

describe("decodeToonWithLines: spec TOON", () => {
  const text = [
    "project:", // 1
    "  name: Demo", // 2
    "  team[2]:", // 3
    "    - name: Ada", // 4
    "      role: lead", // 5
    "    - name: Bob", // 6
    "", // 7
    "# scores", // 8
    "scores[2]{id,value}:", // 9
    "  a,1", // 10
    "  b,2", // 11
    "tags[2]: x,y", // 12
    "m[2:]{v}:", // 13
    "  first: 1", // 14
    "  second: 2", // 15
  ].join("\n");
  const located = decodeToonWithLines(text);

  it("locates keys, list items and their fields", () => {
    expect(located.lineOf(["project"])).toBe(1);
    expect(located.lineOf(["project", "name"])).toBe(2);
    expect(located.lineOf(["project", "team"])).toBe(3);
    expect(located.lineOf(["project", "team", 0, "role"])).toBe(5);
    expect(located.lineOf(["project", "team", 1])).toBe(6);
    expect(located.lineOf(["project", "team", 1, "name"])).toBe(6);
  });

  it("locates tabular rows, inline items and keyed entries", () => {
    expect(located.lineOf(["scores"])).toBe(9);
    expect(located.lineOf(["scores", 1, "value"])).toBe(11);
    expect(located.lineOf(["tags", 1])).toBe(12);
    expect(located.lineOf(["m", "second", "v"])).toBe(15);
  });

  it("locates values of a root array and a root primitive", () => {
    const rows = decodeToonWithLines("# rows\n[2]{id}:\n  1\n  2");
    expect(rows.lineOf([])).toBe(2);
    expect(rows.lineOf([1, "id"])).toBe(4);
    expect(decodeToonWithLines("\nhello").lineOf([])).toBe(2);
  });

  it("has no line for an empty document", () => {
    const empty = decodeToonWithLines("# nothing\n");
    expect(empty.value).toEqual({});
    expect(empty.lineOf(["a"])).toBeUndefined();
  });
});

describe("ToonError", () => {
  it("carries line, source, reason and the decoder's error as cause", () => {
    const error = thrown(() =>
      decodeToon("# c\nitems[2]{id}:\n  1\n  2\n  3", { source: "x.toon" }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ToonError");
    expect(error.line).toBe(5);
    expect(error.source).toBe("x.toon");
    expect(error.reason).toBe('tabular array "items" declares 2 rows but has 3');
    expect(error.message).toBe('x.toon:5: tabular array "items" declares 2 rows but has 3');
    expect(error.cause).toBeInstanceOf(ToonDecodeError);
  });

  it("says line N without a source", () => {
    const error = thrown(() => decodeToon("a:\n   b: 1"));
    expect(error.line).toBe(2);
    expect(error.source).toBeUndefined();
    expect(error.message).toMatch(/^line 2: Indentation must be exact multiple of 2/);
  });

  it("translates decoder lines back through an expanded object header", () => {
    const error = thrown(() => decodeToon("meta{a,b}:\n1,2\nitems[2]: x"));
    expect(error.line).toBe(3);
    expect(error.reason).toBe('inline array "items" declares 2 values but has 1');
  });

  it("reports duplicate keys on their own line after comments and blank lines", () => {
    const error = thrown(() => decodeToon("# a\n# b\n\nx: 1\nx: 2"));
    expect(error.line).toBe(5);
    expect(error.reason).toBe('Duplicate sibling key "x"');
  });

  it("names the row of a spec table with the wrong width", () => {
    const error = thrown(() => decodeToon("rows[2]{a,b}:\n  1,2\n  3"));
    expect(error.line).toBe(3);
    expect(error.reason).toBe('tabular array "rows" row 2 has 1 value, header has 2 fields');
  });

  it("names a spec list with too many or too few items, and a tab-indented line, in plain words", () => {
    const more = thrown(() => decodeToon("id: a\ncriteria[1]:\n  - id: c\n\n  - id: d\n"));
    expect(more.line).toBe(5);
    expect(more.reason).toBe('list "criteria" declares 1 item but has more');
    const fewer = thrown(() => decodeToon("a:\n  tags[3]:\n    - x\n    - y\nb: 1"));
    expect(fewer.line).toBe(4);
    expect(fewer.reason).toBe('list "tags" declares 3 items but has 2');
    const tab = thrown(() => decodeToon("id: a\nmethod:\n\tkind: check\n"));
    expect(tab.line).toBe(3);
    expect(tab.reason).toBe("a tab indents this line: indent with spaces");
  });

  it("names keyed objects with missing entries or cells", () => {
    const missing = thrown(() => decodeToon("m[3:]{v}:\n  a: 1\n  b: 2"));
    expect(missing.line).toBe(3);
    expect(missing.reason).toBe('keyed object "m" declares 3 entries but has 2');
    const narrow = thrown(() => decodeToon("m[2:]{v,w}:\n  a: 1,2\n  b: 3"));
    expect(narrow.line).toBe(3);
    expect(narrow.reason).toBe('keyed object "m" entry 2 has 1 value, header has 2 fields');
  });
});

describe("line endings", () => {
  it.each([
    ["CRLF", "\r\n"],
    ["CR-only (old Mac)", "\r"],
  ])("%s lines decode and locate like LF lines", (_name, ending) => {
    const text = IFB.replaceAll("\n", ending);
    const located = decodeToonWithLines(text, { stringFields: ["version"] });
    expect(located.value).toEqual(decodeToon(IFB, { stringFields: ["version"] }));
    expect(located.lineOf(["criteria", 1, "title"])).toBe(7);
    expect(decodeToon(`a: 1${ending}b: x y${ending}`)).toEqual({ a: 1, b: "x y" });
    const short = thrown(() => decodeToon(IFB.split("\n").slice(0, 7).join(ending)));
    expect(short.line).toBe(7);
  });
});

describe("flush rows cut short", () => {
  it("names the blank or comment line that ends the table when rows follow it", () => {
    const blank = thrown(() => decodeToon("items[3,]{id}:\n1\n\n2\n3"));
    expect(blank.reason).toBe(
      'tabular array "items" declares 3 rows but has 1: a blank line at line 3 ends the table (keep the rows together)',
    );
    const comment = thrown(() => decodeToon("items[2,]{id}:\n1\n# second\n2"));
    expect(comment.reason).toBe(
      'tabular array "items" declares 2 rows but has 1: a comment at line 3 ends the table (keep the rows together)',
    );
  });

  it("says only the count when no row follows the gap", () => {
    const error = thrown(() => decodeToon("items[3,]{id}:\n1\n\nother: 2"));
    expect(error.reason).toBe('tabular array "items" declares 3 rows but has 1');
  });
});
