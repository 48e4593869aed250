import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import { FunctionResolutionError } from "./errors.js";
import { isPointFunctionName, POINT_FUNCTIONS } from "./pointFunctions.js";

/**
 * A deterministic scoring function (seed 003 DETERMINISTIC). It receives the content — the parsed
 * value when the content is JSON text, else the text — and the criterion's args, and returns a
 * boolean, a 0–1 number, `{ error }`, or a level id. It may be async.
 */
export type DeterministicFunction = (content: unknown, args: unknown) => unknown;

export type FunctionOrigin = "registered" | "builtin" | "module";

/** A function found by the registry, ready to call on a criterion's content. */
export interface ResolvedFunction {
  ref: string;
  origin: FunctionOrigin;
  /**
   * Calls the function with the content in the form it expects: built-in point functions get
   * text (an object is given as its JSON), others get parsed JSON when the text is JSON.
   */
  invoke(content: unknown, args: unknown): Promise<unknown>;
}

export interface FunctionRegistryOptions {
  /** Where relative module paths of `module:function` refs are resolved; process.cwd() if absent. */
  baseDir?: string;
}

const MODULE_EXTENSIONS = ["", ".js", ".mjs", ".ts"] as const;

/** Text for point functions: strings as they are, anything else as JSON. */
function asText(content: unknown): string {
  if (typeof content === "string") return content;
  return JSON.stringify(content) ?? String(content);
}

/** Content for registered functions: JSON text parsed to an object or array, else unchanged. */
function asContent(content: unknown): unknown {
  if (typeof content !== "string") return content;
  const trimmed = content.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return content;
  try {
    return JSON.parse(trimmed);
  } catch {
    return content;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isFunction(value: unknown): value is DeterministicFunction {
  return typeof value === "function";
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function isBareSpecifier(specifier: string): boolean {
  return !specifier.startsWith(".") && !specifier.startsWith("/") && !isAbsolute(specifier);
}

/** The named export of a module, looking through a CommonJS `default` object as well. */
function exportNamed(moduleNamespace: unknown, name: string): unknown {
  if (!isRecord(moduleNamespace)) return undefined;
  const direct = moduleNamespace[name];
  if (direct !== undefined) return direct;
  const fallback = moduleNamespace.default;
  return isRecord(fallback) ? fallback[name] : undefined;
}

/**
 * Resolves function references for `function` criteria: a registered function first, then a
 * built-in point function by name, then a `module:function` (or `module.path:function`) ref
 * loaded by dynamic import — the module as a file relative to `baseDir`, or as a package name.
 */
export class FunctionRegistry {
  readonly baseDir: string;
  private readonly registered = new Map<string, DeterministicFunction>();
  private readonly imported = new Map<string, DeterministicFunction>();

  constructor(options: FunctionRegistryOptions = {}) {
    this.baseDir = resolvePath(options.baseDir ?? process.cwd());
  }

  register(ref: string, fn: DeterministicFunction): this {
    if (ref.trim() === "") throw new TypeError("FunctionRegistry.register: the ref is empty");
    this.registered.set(ref, fn);
    return this;
  }

  /** Whether `ref` is registered or a built-in point function (modules are only found by resolve). */
  has(ref: string): boolean {
    return this.registered.has(ref) || isPointFunctionName(ref);
  }

  async resolve(ref: string): Promise<ResolvedFunction> {
    const registered = this.registered.get(ref);
    if (registered !== undefined) return this.wrap(ref, "registered", registered);
    if (isPointFunctionName(ref)) {
      const { fn } = POINT_FUNCTIONS[ref];
      return {
        ref,
        origin: "builtin",
        invoke: async (content, args) => fn(asText(content), args),
      };
    }
    const cached = this.imported.get(ref);
    if (cached !== undefined) return this.wrap(ref, "module", cached);

    const tried = [`no function registered as '${ref}'`, `no built-in point function '${ref}'`];
    const separator = ref.lastIndexOf(":");
    if (separator <= 0 || separator === ref.length - 1) {
      tried.push("not a 'module:function' reference");
      throw new FunctionResolutionError(ref, tried);
    }
    const moduleName = ref.slice(0, separator);
    const exportName = ref.slice(separator + 1);
    const fn = await this.importFunction(moduleName, exportName, tried);
    if (fn === undefined) throw new FunctionResolutionError(ref, tried);
    this.imported.set(ref, fn);
    return this.wrap(ref, "module", fn);
  }

  private wrap(ref: string, origin: FunctionOrigin, fn: DeterministicFunction): ResolvedFunction {
    return { ref, origin, invoke: async (content, args) => fn(asContent(content), args) };
  }

  /** File candidates for a module name: as given, with extensions, and dotted as a path. */
  private fileCandidates(moduleName: string): string[] {
    const stems = [moduleName];
    if (!moduleName.includes("/") && !moduleName.includes("\\") && moduleName.includes(".")) {
      stems.push(moduleName.split(".").join("/"));
    }
    const candidates = stems.flatMap((stem) =>
      MODULE_EXTENSIONS.map((extension) => resolvePath(this.baseDir, `${stem}${extension}`)),
    );
    return [...new Set(candidates)];
  }

  private async importFunction(
    moduleName: string,
    exportName: string,
    tried: string[],
  ): Promise<DeterministicFunction | undefined> {
    for (const file of this.fileCandidates(moduleName)) {
      if (!(await isFile(file))) {
        tried.push(`no file ${file}`);
        continue;
      }
      return this.loadExport(pathToFileURL(file).href, file, exportName, tried);
    }
    if (!isBareSpecifier(moduleName)) return undefined;
    const fromBaseDir = this.resolvePackage(moduleName);
    const specifier = fromBaseDir ?? moduleName;
    return this.loadExport(specifier, `package '${moduleName}'`, exportName, tried);
  }

  /** The package's entry file as seen from baseDir, when CommonJS resolution can find it. */
  private resolvePackage(packageName: string): string | undefined {
    try {
      const require = createRequire(join(this.baseDir, "package.json"));
      return pathToFileURL(require.resolve(packageName)).href;
    } catch {
      return undefined;
    }
  }

  private async loadExport(
    specifier: string,
    label: string,
    exportName: string,
    tried: string[],
  ): Promise<DeterministicFunction | undefined> {
    let moduleNamespace: unknown;
    try {
      moduleNamespace = await import(specifier);
    } catch (error) {
      tried.push(`importing ${label} failed: ${errorText(error)}`);
      return undefined;
    }
    const candidate = exportNamed(moduleNamespace, exportName);
    if (isFunction(candidate)) return candidate;
    tried.push(
      candidate === undefined
        ? `${label} has no export '${exportName}'`
        : `${label} exports '${exportName}' but it is not a function`,
    );
    return undefined;
  }
}
