/**
 * The names each package.json export offers, read with the TypeScript compiler from the source
 * entry the export's `import` path is compiled from (./dist/src/x/index.js ← src/x/index.ts):
 * values and types alike, each with the TSDoc a user's editor shows for it — the comment on the
 * export specifier in the entry, else the one on the declaration.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { z } from "zod";

const ROOT = join(import.meta.dirname, "..");

const ExportTargetSchema = z.object({ types: z.string(), import: z.string() });
const PackageSchema = z.object({
  exports: z.record(z.string(), z.union([ExportTargetSchema, z.string()])),
});

/** package.json `exports` without `./package.json`: specifier ("evalgate/graph") → target. */
export function packageEntries(root = ROOT): Map<string, z.infer<typeof ExportTargetSchema>> {
  const manifest = PackageSchema.parse(
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")),
  );
  const entries = new Map<string, z.infer<typeof ExportTargetSchema>>();
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string") continue;
    entries.set(key === "." ? "evalgate" : `evalgate${key.slice(1)}`, target);
  }
  return entries;
}

/** ./dist/src/x/index.js (or .d.ts) → src/x/index.ts, the source tsc compiles there. */
export function sourceOf(distPath: string): string {
  const match = /^\.\/dist\/(src\/(?:[a-z]+\/)?index)\.(?:js|d\.ts)$/.exec(distPath);
  if (match === null) throw new Error(`${distPath} does not point at an index in dist/src`);
  return `${match[1]}.ts`;
}

export interface PublicName {
  name: string;
  /** The TSDoc a user sees on hover, "" when there is none. */
  doc: string;
  /** A runtime value (function, class, schema, constant), not only a type. */
  value: boolean;
}

/** Every export subpath's names, keyed by specifier ("evalgate", "evalgate/review", …). */
export function publicNames(root = ROOT): Map<string, PublicName[]> {
  const entries = packageEntries(root);
  const files = [...entries.values()].map((target) => join(root, sourceOf(target.import)));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  });
  const checker = program.getTypeChecker();
  const result = new Map<string, PublicName[]>();
  for (const [specifier, target] of entries) {
    const file = program.getSourceFile(join(root, sourceOf(target.import)));
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`${specifier}: no module at ${target.import}`);
    result.set(
      specifier,
      checker.getExportsOfModule(module).map((symbol) => describeName(checker, symbol)),
    );
  }
  return result;
}

function describeName(checker: ts.TypeChecker, symbol: ts.Symbol): PublicName {
  const own = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declared = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
  return {
    name: symbol.name,
    doc: own === "" ? declared : own,
    value: (target.flags & ts.SymbolFlags.Value) !== 0,
  };
}
