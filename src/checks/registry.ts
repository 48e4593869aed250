import { createRequire } from "node:module";
import { join, resolve as resolvePath } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type FunctionAllowance,
  resolveFunctionModule,
  splitFunctionRef,
} from "../criteria/functionRefs.js";
import {
  isBuiltInPointFunctionName,
  isModelPointFunctionName,
  isPointFunctionName,
  MODEL_POINT_FUNCTIONS,
  POINT_FUNCTIONS,
} from "../pointFunctions/builtIn.js";
import { errorMessageOf, type PointFunctionContext } from "../pointFunctions/contract.js";
import { isRecord, readUntrustedJson } from "../untrusted/json.js";
import { createOllamaEmbedder, type EmbeddingServerOptions } from "./embeddings.js";
import { FunctionResolutionError } from "./errors.js";
import { metaCheckOf } from "./metaChecks.js";

/** Given the content (parsed when it is JSON text) and the args: a boolean, 0–1, `{ error }` or a level id. */
export type DeterministicFunction = (content: unknown, args: unknown) => unknown;

export type FunctionOrigin = "registered" | "builtin" | "module";

export interface ResolvedFunction {
  ref: string;
  origin: FunctionOrigin;
  /** Built-in point functions get text; others get parsed JSON when the text is JSON. */
  invoke(content: unknown, args: unknown): Promise<unknown>;
}

export interface FunctionRegistryOptions {
  /** The folder `module:function` refs are resolved in; a module must be a file inside it. */
  baseDir?: string;
  /**
   * Package functions a catalog may name, allowed by their full ref (`"@acme/checks:wordCount"`).
   * A catalog is data: without this, no installed package is ever imported for it.
   */
  packageFunctions?: readonly string[];
  /** The reference answer for reference-based point functions whose args give none. */
  reference?: string;
  embeddings?: EmbeddingServerOptions;
}

function asText(content: unknown): string {
  if (typeof content === "string") return content;
  return JSON.stringify(content) ?? String(content);
}

/** JSON text parsed (prototype-poisoning refused), else unchanged. */
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

/** Looks through a CommonJS `default` object as well. */
function exportNamed(moduleNamespace: unknown, name: string): unknown {
  if (!isRecord(moduleNamespace)) return undefined;
  const direct = moduleNamespace[name];
  if (direct !== undefined) return direct;
  const fallback = moduleNamespace.default;
  return isRecord(fallback) ? fallback[name] : undefined;
}

/**
 * Resolves `function` criteria: registered, then built in (point functions, meta checks), then a
 * `module:function` file inside `baseDir` or an allowed package function. Nothing else is imported.
 */
export class FunctionRegistry implements FunctionAllowance {
  readonly baseDir: string;
  private readonly registered = new Map<string, DeterministicFunction>();
  private readonly imported = new Map<string, DeterministicFunction>();
  private readonly packageFunctions: ReadonlySet<string>;
  private readonly options: FunctionRegistryOptions;
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

  get reference(): string | undefined {
    return this.context.reference;
  }

  /** The same registry with another reference answer: one per example when each has its own. */
  withReference(reference: string | undefined): FunctionRegistry {
    const copy = new FunctionRegistry({ ...this.options, baseDir: this.baseDir, reference });
    for (const [ref, fn] of this.registered) copy.registered.set(ref, fn);
    for (const [ref, fn] of this.imported) copy.imported.set(ref, fn);
    return copy;
  }

  /** Whether a catalog may name `ref` beyond its folder. */
  allows(ref: string): boolean {
    return this.has(ref) || this.packageFunctions.has(ref);
  }

  register(ref: string, fn: DeterministicFunction): this {
    if (ref.trim() === "") throw new TypeError("FunctionRegistry.register: the ref is empty");
    this.registered.set(ref, fn);
    return this;
  }

  /** Modules are only found by resolve. */
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

  private builtInPointFunction(ref: string): ResolvedFunction | undefined {
    const definition = isPointFunctionName(ref)
      ? POINT_FUNCTIONS[ref]
      : isModelPointFunctionName(ref)
        ? MODEL_POINT_FUNCTIONS[ref]
        : undefined;
    const fn = definition?.fn;
    if (fn === undefined) return undefined;
    return {
      ref,
      origin: "builtin",
      invoke: async (text, args) => fn(asText(text), args, this.context),
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
