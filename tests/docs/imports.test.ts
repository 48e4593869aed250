/**
 * Every import of evalgate the documentation shows — the code blocks of README.md and docs/*.md
 * (fragments too), docs/examples/ and the example pipeline — names an entry package.json offers
 * and only names that entry exports, so a sample cannot point at a removed subpath or name.
 * (examples.test.ts and guideExamples.test.ts run the examples; the packed-package test imports
 * every entry from an installed tarball.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { publicNames } from "../publicNames.js";
import { allSamples, CODE_LANGUAGES } from "./docSamples.js";

const root = join(import.meta.dirname, "../..");

interface EvalgateImport {
  place: string;
  specifier: string;
  names: string[];
}

/** The `import … from "evalgate…"` declarations of a source text, with the names they import. */
function evalgateImports(place: string, text: string): EvalgateImport[] {
  const file = ts.createSourceFile("sample.ts", text, ts.ScriptTarget.Latest, false);
  const found: EvalgateImport[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) {
      continue;
    }
    const specifier = statement.moduleSpecifier.text;
    if (specifier !== "evalgate" && !specifier.startsWith("evalgate/")) continue;
    const bindings = statement.importClause?.namedBindings;
    const names =
      bindings !== undefined && ts.isNamedImports(bindings)
        ? bindings.elements.map((e) => (e.propertyName ?? e.name).text)
        : [];
    found.push({ place, specifier, names });
  }
  return found;
}

function documentedImports(): EvalgateImport[] {
  const blocks = allSamples(root)
    .filter((sample) => CODE_LANGUAGES.has(sample.language))
    .flatMap((sample) => evalgateImports(`${sample.doc}:${sample.line}`, sample.text));
  const files = [
    ...readdirSync(join(root, "docs/examples"))
      .filter((name) => name.endsWith(".ts"))
      .map((name) => `docs/examples/${name}`),
    ...readdirSync(join(root, "examples/proposal-pipeline"))
      .filter((name) => name.endsWith(".mjs"))
      .map((name) => `examples/proposal-pipeline/${name}`),
  ];
  const sources = files.flatMap((file) =>
    evalgateImports(file, readFileSync(join(root, file), "utf8")),
  );
  return [...blocks, ...sources];
}

describe("the imports the documentation shows", () => {
  const offered = publicNames(root);
  const imports = documentedImports();

  it("reads the named imports of a sample, and nothing but evalgate's", () => {
    const sample = [
      'import { a, type B, c as d } from "evalgate";',
      'import type { E } from "evalgate/graph";',
      'import { f } from "@langchain/langgraph";',
      'import * as all from "evalgate/store";',
    ].join("\n");
    expect(evalgateImports("x.md:1", sample)).toEqual([
      { place: "x.md:1", specifier: "evalgate", names: ["a", "B", "c"] },
      { place: "x.md:1", specifier: "evalgate/graph", names: ["E"] },
      { place: "x.md:1", specifier: "evalgate/store", names: [] },
    ]);
  });

  it("finds them in README.md, docs/ and the examples", () => {
    const from = (pattern: RegExp) => imports.filter((i) => pattern.test(i.place)).length;
    expect(from(/\.md:\d+$/)).toBeGreaterThan(5);
    expect(from(/^docs\/examples\//)).toBeGreaterThan(5);
    expect(from(/^examples\/proposal-pipeline\//)).toBeGreaterThan(0);
    expect(imports.length).toBeGreaterThan(15);
    expect(new Set(imports.map((i) => i.specifier)).size).toBeGreaterThan(4);
  });

  it.each(imports.map((i) => [`${i.place} ${i.specifier}`, i] as const))(
    "%s: an entry of package.json, and names it exports",
    (_place, found) => {
      const names = offered.get(found.specifier);
      expect(names, `${found.specifier} is not an entry of package.json`).toBeDefined();
      const known = new Set(names?.map((n) => n.name));
      expect(found.names.filter((name) => !known.has(name))).toEqual([]);
    },
  );
});
