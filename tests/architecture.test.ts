/**
 * The structural guard: the rules of the house that no single test of behaviour would notice
 * breaking. It reads src/ with the TypeScript compiler API (no other tool needed):
 *
 * - no import cycle among src modules (type-only, re-exports and literal dynamic imports count);
 * - file and function sizes: 300 lines a file and 80 a function are guidance, not a wall. A file
 *   that holds one concept may grow past 300 lines when it is listed below with that concept, and
 *   a function past 80 when it is listed with its reason; nothing passes the ceilings (600 and
 *   120), so runaway growth is still caught (see "File sizes" in docs/architecture.md);
 * - user-facing text in src/ and prompts/ names formats, never the requirement documents;
 * - nothing in src/ reads LangGraph's internal config keys (`__pregel_*`);
 * - LangGraph is imported only from src/graph and the layers above it (orchestrator, desk, service,
 *   cli); src/judge and src/llm use LangChain only through @langchain/core (src/llm also loads
 *   the chat-model provider integrations it exists to wrap).
 *
 * Every listed entry must still be over its guidance: once it is not, the test asks for it to be
 * removed, so the lists say only what is true. Run alone with `npm run check:structure`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SRC = join(ROOT, "src");
/** Guidance: a file past this many lines is listed in LONG_FILES with its one concept. */
const FILE_LINES_GUIDANCE = 300;
/** No file passes this, listed or not. */
const FILE_LINES_CEILING = 600;
/** Guidance: a function past this many lines is listed in LONG_FUNCTIONS with its reason. */
const FUNCTION_LINES_GUIDANCE = 80;
/** No function passes this, listed or not. */
const FUNCTION_LINES_CEILING = 120;

/**
 * Files over the guidance (paths from the repository root), each with the one concept that keeps
 * it whole: splitting it would cut that concept in pieces a reader has to put back together.
 */
const LONG_FILES: Readonly<Record<string, string>> = {
  "src/toon/normalise.ts":
    "the TOON criteria dialect's normaliser: one rewriting pass over lines, tables included",
  "src/store/migrations.ts":
    "the store's schema history: one ordered list of migrations, none edited once released",
  "src/store/database.ts":
    "the dialect layer: one transaction runner over SQLite and PostgreSQL, and their differences",
  "src/criteria/templateEngine.ts":
    "LiquidJS fenced for untrusted prompt templates: its bounds, filters, guards and parser",
};

/** Functions over the guidance, as `path › name`, each with why it reads best in one piece. */
const LONG_FUNCTIONS: Readonly<Record<string, string>> = {};

/** Files in src/ or prompts/ that still name the requirement documents. */
const ORIGIN_WORDS_ALLOWED: readonly string[] = [];

/** Where a requirement document is named instead of the format it describes. */
const ORIGIN_WORDS = /seed ?00[0-4]|TC-CRI/i;

/** Folders of src/ at or above the graph layer: the only ones that may import LangGraph. */
const GRAPH_AND_ABOVE = ["graph", "orchestrator", "desk", "service", "cli"];

/** Chat-model provider integrations that src/llm wraps (they implement @langchain/core models). */
const LLM_PROVIDER_PACKAGES = ["@langchain/ollama"];

const toPosix = (path: string): string => path.split(sep).join("/");
const fromRoot = (path: string): string => toPosix(relative(ROOT, path));

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, accept));
    else if (accept(name)) found.push(path);
  }
  return found;
}

const isSource = (name: string): boolean => /\.tsx?$/.test(name) && !name.endsWith(".d.ts");

interface SourceModule {
  path: string;
  text: string;
  file: ts.SourceFile;
}

const modules: SourceModule[] = filesUnder(SRC, isSource).map((path) => {
  const text = readFileSync(path, "utf8");
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return { path, text, file: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind) };
});

/** Every module specifier a file names: imports and re-exports (type-only too), literal import(). */
function specifiersOf(file: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The src file a relative specifier names (`./x.js` is `./x.ts`), or undefined. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?jsx?$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, "index.ts")];
  return candidates.find((path) => path.startsWith(SRC) && existsSync(path) && isSource(path));
}

/** The import graph of src: module → the src modules it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const { path, file } of modules) {
    const targets = specifiersOf(file)
      .map((specifier) => resolveLocal(path, specifier))
      .filter((target): target is string => target !== undefined);
    graph.set(fromRoot(path), [...new Set(targets.map(fromRoot))].sort());
  }
  return graph;
}

/** Strongly connected components with a cycle (Tarjan), each sorted. */
function cyclicComponents(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) components.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components;
}

/** The shortest cycle through the first module of a component, as `a → b → a`. */
function cyclePath(graph: Map<string, string[]>, component: readonly string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; ) {
          path.splice(1, 0, at);
          at = previous.get(at);
        }
        if (node === start) return `${start} → ${start}`;
        return [...path, start].join(" → ");
      }
      if (!previous.has(next) && next !== start) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return component.join(", ");
}

function lineCount(text: string): number {
  const lines = text.split(/\r?\n/);
  return lines.at(-1) === "" ? lines.length - 1 : lines.length;
}

/** A name for a function that stays the same as lines move: its own, or where it is bound. */
function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  const parent = node.parent;
  const classOf = (member: ts.Node): string =>
    ts.isClassLike(member.parent) ? (member.parent.name?.getText(file) ?? "class") : "";
  const member = (name: string): string => {
    const owner = classOf(node);
    return owner === "" ? name : `${owner}.${name}`;
  };
  if (ts.isConstructorDeclaration(node)) return member("constructor");
  if (node.name !== undefined) return member(node.name.getText(file));
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(file);
  }
  if (ts.isPropertyDeclaration(parent)) {
    const owner = classOf(parent);
    return owner === "" ? parent.name.getText(file) : `${owner}.${parent.name.getText(file)}`;
  }
  const enclosing = ts.findAncestor(parent, ts.isFunctionLike);
  const within =
    enclosing !== undefined && "body" in enclosing
      ? `${functionName(enclosing as ts.FunctionLikeDeclaration, file)} › `
      : "";
  if (ts.isReturnStatement(parent) || (enclosing !== undefined && parent === enclosing)) {
    return `${within}returned function`;
  }
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const calleeName = ts.isPropertyAccessExpression(callee)
      ? callee.name.getText(file)
      : callee.getText(file);
    return `${within}${calleeName}(…) callback`;
  }
  return `${within}anonymous function`;
}

/** How many lines a file or a function spans, by its id. */
interface Size {
  id: string;
  lines: number;
}

function functionLengths(module: SourceModule): Size[] {
  const found: Size[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const declaration = node as ts.FunctionLikeDeclaration;
      const first = module.file.getLineAndCharacterOfPosition(node.getStart(module.file)).line;
      const last = module.file.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({
        id: `${fromRoot(module.path)} › ${functionName(declaration, module.file)}`,
        lines: last - first + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(module.file);
  return found;
}

/**
 * Offenders against a limit, checked against the allow-list of today's offenders: an offender not
 * listed, and a listed entry that no longer offends, are both failures.
 */
function checkAgainstAllowList(offenders: readonly string[], allowed: readonly string[]) {
  const current = new Set(offenders);
  const listed = new Set(allowed);
  return {
    unlisted: [...current].filter((id) => !listed.has(id)).sort(),
    fixed: [...listed]
      .filter((id) => !current.has(id))
      .map((id) => `remove ${id} from the allow-list: it no longer offends`)
      .sort(),
  };
}

/**
 * What is wrong with the sizes against a guidance and a ceiling: anything past the ceiling (listed
 * or not), anything past the guidance that is not listed with a reason, and any listed entry that
 * is missing or no longer past the guidance.
 */
function checkSizes(
  sizes: readonly Size[],
  listed: Readonly<Record<string, string>>,
  guidance: number,
  ceiling: number,
): string[] {
  const problems: string[] = [];
  for (const { id, lines } of sizes) {
    if (lines > ceiling) {
      problems.push(`${id}: ${lines} lines, over the ceiling of ${ceiling}: split it`);
    } else if (lines > guidance && (listed[id] ?? "").trim() === "") {
      problems.push(
        `${id}: ${lines} lines, over ${guidance}: split it, or list it with the one concept it holds`,
      );
    }
  }
  const byId = new Map(sizes.map((size) => [size.id, size.lines]));
  for (const id of Object.keys(listed)) {
    const lines = byId.get(id);
    if (lines === undefined) problems.push(`${id} is listed but does not exist: remove it`);
    else if (lines <= guidance) {
      problems.push(`${id} is listed but has ${lines} lines, within ${guidance}: remove it`);
    }
  }
  return problems.sort();
}

describe("the structure of src/", () => {
  it("finds the modules it guards", () => {
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.map((m) => fromRoot(m.path))).toContain("src/index.ts");
    // Relative specifiers resolve to src files (`./x.js` is `./x.ts`): the graph has edges.
    expect(importGraph().get("src/engine/evaluateContent.ts")).toContain("src/engine/options.ts");
  });

  it("has no import cycle (type-only imports included)", () => {
    const graph = importGraph();
    const cycles = cyclicComponents(graph).map((component) => cyclePath(graph, component));
    expect(cycles).toEqual([]);
  });

  it(`keeps files within ${FILE_LINES_GUIDANCE} lines, or lists them with their concept (ceiling ${FILE_LINES_CEILING})`, () => {
    const sizes = modules.map((m) => ({ id: fromRoot(m.path), lines: lineCount(m.text) }));
    expect(checkSizes(sizes, LONG_FILES, FILE_LINES_GUIDANCE, FILE_LINES_CEILING)).toEqual([]);
  });

  it(`keeps functions within ${FUNCTION_LINES_GUIDANCE} lines, or lists them with a reason (ceiling ${FUNCTION_LINES_CEILING})`, () => {
    const sizes = modules.flatMap(functionLengths);
    expect(
      checkSizes(sizes, LONG_FUNCTIONS, FUNCTION_LINES_GUIDANCE, FUNCTION_LINES_CEILING),
    ).toEqual([]);
  });

  it("names formats, not requirement documents, in src/ and prompts/", () => {
    const scanned = [SRC, join(ROOT, "prompts")].flatMap((dir) => filesUnder(dir, () => true));
    const mentions = scanned.flatMap((path) =>
      readFileSync(path, "utf8")
        .split(/\r?\n/)
        .flatMap((line, at) =>
          ORIGIN_WORDS.test(line)
            ? [{ file: fromRoot(path), where: `${fromRoot(path)}:${at + 1}` }]
            : [],
        ),
    );
    const { unlisted, fixed } = checkAgainstAllowList(
      [...new Set(mentions.map((m) => m.file))],
      ORIGIN_WORDS_ALLOWED,
    );
    expect(mentions.filter((m) => unlisted.includes(m.file)).map((m) => m.where)).toEqual([]);
    expect(fixed).toEqual([]);
  });

  it("reads none of LangGraph's internal config keys (__pregel_*) in src/", () => {
    const readers = filesUnder(SRC, () => true).filter((path) =>
      readFileSync(path, "utf8").includes("__pregel_"),
    );
    expect(readers.map(fromRoot)).toEqual([]);
  });

  it("imports LangGraph only from src/graph and the layers above it", () => {
    const misplaced = modules.flatMap((m) => {
      const folder = fromRoot(m.path).split("/")[1] ?? "";
      const aboveGraph = GRAPH_AND_ABOVE.includes(folder) || folder === "index.ts";
      if (aboveGraph) return [];
      return specifiersOf(m.file)
        .filter((s) => s === "@langchain/langgraph" || s.startsWith("@langchain/langgraph"))
        .map((s) => `${fromRoot(m.path)} imports ${s}`);
    });
    expect(misplaced).toEqual([]);
  });

  it("keeps src/judge and src/llm on @langchain/core (src/llm: plus its provider integrations)", () => {
    const outside = modules.flatMap((m) => {
      const folder = fromRoot(m.path).split("/")[1] ?? "";
      if (folder !== "judge" && folder !== "llm") return [];
      return specifiersOf(m.file)
        .filter(
          (s) => s === "langchain" || s.startsWith("langchain/") || s.startsWith("@langchain/"),
        )
        .filter((s) => s !== "@langchain/core" && !s.startsWith("@langchain/core/"))
        .filter((s) => !(folder === "llm" && LLM_PROVIDER_PACKAGES.includes(s)))
        .map((s) => `${fromRoot(m.path)} imports ${s}`);
    });
    expect(outside).toEqual([]);
  });
});

describe("the structural guard's own reasoning", () => {
  it("finds a cycle and names its path", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    const components = cyclicComponents(graph);
    expect(components).toEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
    expect(components.map((c) => cyclePath(graph, c))).toEqual([
      "a.ts → b.ts → c.ts → a.ts",
      "e.ts → e.ts",
    ]);
    expect(
      cyclicComponents(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("reads type-only imports, re-exports and literal dynamic imports", () => {
    const file = ts.createSourceFile(
      "x.ts",
      [
        'import type { A } from "./a.js";',
        'export { B } from "./b.js";',
        'export type { C } from "./c.js";',
        'const d = await import("./d.js");',
        'type E = import("./e.js").E;',
        'import { f } from "@langchain/langgraph";',
      ].join("\n"),
      ts.ScriptTarget.Latest,
      true,
    );
    expect(specifiersOf(file).sort()).toEqual(
      ["./a.js", "./b.js", "./c.js", "./d.js", "./e.js", "@langchain/langgraph"].sort(),
    );
  });

  it("measures a function from its first to its last line and names it where it is bound", () => {
    const text = [
      "export function outer() {", // 1
      "  const inner = () => {", // 2
      "    return 1;", // 3
      "  };", // 4
      "  return inner;", // 5
      "}", // 6
      "class Box {", // 7
      "  open(): void {}", // 8
      "}", // 9
      "const make = () => {", // 10
      "  return async () => 2;", // 11
      "};", // 12
    ].join("\n");
    const module = {
      path: join(SRC, "x.ts"),
      text,
      file: ts.createSourceFile(join(SRC, "x.ts"), text, ts.ScriptTarget.Latest, true),
    };
    expect(functionLengths(module)).toEqual([
      { id: "src/x.ts › outer", lines: 6 },
      { id: "src/x.ts › inner", lines: 3 },
      { id: "src/x.ts › Box.open", lines: 1 },
      { id: "src/x.ts › make", lines: 3 },
      { id: "src/x.ts › make › returned function", lines: 1 },
    ]);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });

  it("holds sizes to the guidance unless listed with a reason, and everything to the ceiling", () => {
    const sizes = [
      { id: "small.ts", lines: 300 },
      { id: "listed.ts", lines: 450 },
      { id: "unlisted.ts", lines: 301 },
      { id: "blank reason.ts", lines: 400 },
      { id: "runaway.ts", lines: 601 },
      { id: "shrunk.ts", lines: 120 },
    ];
    const listed = {
      "listed.ts": "one concept",
      "blank reason.ts": " ",
      "runaway.ts": "one concept, grown",
      "shrunk.ts": "was long",
      "gone.ts": "was deleted",
    };
    expect(checkSizes(sizes, listed, 300, 600)).toEqual([
      "blank reason.ts: 400 lines, over 300: split it, or list it with the one concept it holds",
      "gone.ts is listed but does not exist: remove it",
      "runaway.ts: 601 lines, over the ceiling of 600: split it",
      "shrunk.ts is listed but has 120 lines, within 300: remove it",
      "unlisted.ts: 301 lines, over 300: split it, or list it with the one concept it holds",
    ]);
    expect(
      checkSizes([{ id: "edge.ts", lines: 600 }], { "edge.ts": "one concept" }, 300, 600),
    ).toEqual([]);
  });

  it("fails for an unlisted offender and for a listed entry that no longer offends", () => {
    expect(checkAgainstAllowList(["a", "b"], ["b", "c"])).toEqual({
      unlisted: ["a"],
      fixed: ["remove c from the allow-list: it no longer offends"],
    });
    // Built from parts, so this file does not itself hold the words it looks for.
    expect(ORIGIN_WORDS.test(["as Seed", "004 criteria"].join(" "))).toBe(true);
    expect(ORIGIN_WORDS.test("see tc-cri-3")).toBe(true);
    expect(ORIGIN_WORDS.test("a funding criteria catalog")).toBe(false);
  });
});
