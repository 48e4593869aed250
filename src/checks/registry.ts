import { createRequire } from "node:module";
import { join, resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type FunctionAllowance,
  resolveFunctionModule,
  splitFunctionRef,
} from "../criteria/functionRefs.js";
import { isRecord } from "../llm/classifyError.js";
import {
  isBuiltInPointFunctionName,
  isModelPointFunctionName,
  isPointFunctionName,
  MODEL_POINT_FUNCTIONS,
  POINT_FUNCTIONS,
} from "../pointFunctions/builtIn.js";
import { errorMessageOf, type PointFunctionContext } from "../pointFunctions/contract.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { createOllamaEmbedder, type EmbeddingServerOptions } from "./embeddings.js";
import { FunctionResolutionError } from "./errors.js";
import { metaCheckOf } from "./metaChecks.js";

/**
 * A deterministic scoring function (DETERMINISTIC in a levels rubric). It receives the content —
 * the parsed value when the content is JSON text, else the text — and the criterion's args, and
 * returns a boolean, a 0–1 number, `{ error }`, or a level id. It may be async.
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
  /**
   * The folder `module:function` refs are resolved in (the catalog's folder); process.cwd() if
   * absent. A module must be a file inside it: no absolute path, `..` or symbolic link out of it.
   */
  baseDir?: string;
  /**
   * Package functions a catalog may name, allowed by their full ref (`"@acme/checks:wordCount"`).
   * A catalog is data: without this, no installed package is ever imported for it.
   */
  packageFunctions?: readonly string[];
  /**
   * The reference answer for the reference-based point functions (`rouge_l`,
   * `levenshtein_similarity`, `embedding_similarity`) whose args give none.
   */
  reference?: string;
  /** The model server `embedding_similarity` asks (default: OLLAMA_BASE_URL, nomic-embed-text). */
  embeddings?: EmbeddingServerOptions;
}

/** Text for point functions: strings as they are, anything else as JSON. */
function asText(content: unknown): string {
  if (typeof content === "string") return content;
  return JSON.stringify(content) ?? String(content);
}

/**
 * Content for registered functions: JSON text parsed to an object or array (with
 * prototype-poisoning protection), else unchanged — text that is not usable JSON, or that holds
 * a `__proto__` key, stays the text it is.
 */
function asContent(content: unknown): unknown {
  if (typeof content !== "string") return content;
  const trimmed = content.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return content;
  const read = readUntrustedJson(trimmed);
  return read.ok ? read.value : content;
}

function isFunction(value: unknown): value is DeterministicFunction {
  return typeof value === "function";
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
 * built-in point function by name or a meta check (`evalgate.meta:checkThreshold`), then a `module:function` (or `module.path:function`) ref
 * loaded by dynamic import — the module as a file inside `baseDir`, or a package function the
 * application allowed by name (`packageFunctions`). Nothing else a catalog names is imported.
 */
export class FunctionRegistry implements FunctionAllowance {
  readonly baseDir: string;
  private readonly registered = new Map<string, DeterministicFunction>();
  private readonly imported = new Map<string, DeterministicFunction>();
  private readonly packageFunctions: ReadonlySet<string>;
  private readonly options: FunctionRegistryOptions;
  /** What the built-in point functions are given beside the text and the args. */
  private readonly context: PointFunctionContext;

  constructor(options: FunctionRegistryOptions = {}) {
    this.options = options;
    this.baseDir = resolvePath(options.baseDir ?? process.cwd());
    this.packageFunctions = new Set(options.packageFunctions ?? []);
    this.context = {
      ...(options.reference === undefined ? {} : { reference: options.reference }),
      embedder: createOllamaEmbedder(options.embeddings ?? {}),
    };
  }

  /** The reference answer the reference-based point functions use when their args give none. */
  get reference(): string | undefined {
    return this.context.reference;
  }

  /**
   * The same registry (its registrations, allowed packages, imported modules and embeddings)
   * with another reference answer: one per example when each has its own.
   */
  withReference(reference: string | undefined): FunctionRegistry {
    const { reference: _previous, ...rest } = this.options;
    const same = { ...rest, baseDir: this.baseDir };
    const copy = new FunctionRegistry(reference === undefined ? same : { ...same, reference });
    for (const [ref, fn] of this.registered) copy.registered.set(ref, fn);
    for (const [ref, fn] of this.imported) copy.imported.set(ref, fn);
    return copy;
  }

  /** Whether a catalog may name `ref` beyond its folder: registered, built in, or an allowed package function. */
  allows(ref: string): boolean {
    return this.has(ref) || this.packageFunctions.has(ref);
  }

  register(ref: string, fn: DeterministicFunction): this {
    if (ref.trim() === "") throw new TypeError("FunctionRegistry.register: the ref is empty");
    this.registered.set(ref, fn);
    return this;
  }

  /** Whether `ref` is registered or a built-in point function (modules are only found by resolve). */
  has(ref: string): boolean {
    return (
      this.registered.has(ref) || isBuiltInPointFunctionName(ref) || metaCheckOf(ref) !== undefined
    );
  }

  async resolve(ref: string): Promise<ResolvedFunction> {
    const registered = this.registered.get(ref);
    if (registered !== undefined) return this.wrap(ref, "registered", registered);
    const builtIn = this.builtInPointFunction(ref);
    if (builtIn !== undefined) return builtIn;
    const metaCheck = metaCheckOf(ref);
    if (metaCheck !== undefined) {
      return { ref, origin: "builtin", invoke: async (content) => metaCheck(content) };
    }
    const cached = this.imported.get(ref);
    if (cached !== undefined) return this.wrap(ref, "module", cached);

    const tried = [`no function registered as '${ref}'`, `no built-in point function '${ref}'`];
    const parts = splitFunctionRef(ref);
    if (parts === undefined) {
      tried.push("not a 'module:function' reference");
      throw new FunctionResolutionError(ref, tried);
    }
    const fn = await this.importFunction(ref, parts.module, parts.exportName, tried);
    if (fn === undefined) throw new FunctionResolutionError(ref, tried);
    this.imported.set(ref, fn);
    return this.wrap(ref, "module", fn);
  }

  /** A built-in point function, called on the content as text with this registry's context. */
  private builtInPointFunction(ref: string): ResolvedFunction | undefined {
    const context = this.context;
    const definition = isPointFunctionName(ref)
      ? POINT_FUNCTIONS[ref]
      : isModelPointFunctionName(ref)
        ? MODEL_POINT_FUNCTIONS[ref]
        : undefined;
    if (definition === undefined) return undefined;
    const { fn } = definition;
    return {
      ref,
      origin: "builtin",
      invoke: async (content, args) => fn(asText(content), args, context),
    };
  }

  private wrap(ref: string, origin: FunctionOrigin, fn: DeterministicFunction): ResolvedFunction {
    return { ref, origin, invoke: async (content, args) => fn(asContent(content), args) };
  }

  private async importFunction(
    ref: string,
    moduleName: string,
    exportName: string,
    tried: string[],
  ): Promise<DeterministicFunction | undefined> {
    if (this.packageFunctions.has(ref)) {
      const specifier = this.resolvePackage(moduleName) ?? moduleName;
      return this.loadExport(specifier, `package '${moduleName}'`, exportName, tried);
    }
    const file = await resolveFunctionModule(this.baseDir, moduleName);
    if (!file.found) {
      tried.push(`module '${moduleName}' in ${this.baseDir}: ${file.problem}`);
      tried.push(`'${ref}' is not a package function the application allows (packageFunctions)`);
      return undefined;
    }
    return this.loadExport(pathToFileURL(file.path).href, file.path, exportName, tried);
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
      tried.push(`importing ${label} failed: ${errorMessageOf(error)}`);
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
