import { describe, expect, it } from "vitest";
import { FunctionResolutionError } from "../../src/checks/errors.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { FIXTURES_DIR } from "./helpers.js";

describe("FunctionRegistry", () => {
  it("resolves a registered function first and hands it parsed JSON content", async () => {
    const registry = new FunctionRegistry();
    const seen: unknown[] = [];
    registry.register("app:count", (content, args) => {
      seen.push(content, args);
      return "pass";
    });
    expect(registry.has("app:count")).toBe(true);
    const resolved = await registry.resolve("app:count");
    expect(resolved.origin).toBe("registered");
    expect(await resolved.invoke('{"questions": ["Q1"]}', { min: 1 })).toBe("pass");
    expect(seen).toEqual([{ questions: ["Q1"] }, { min: 1 }]);
    await resolved.invoke("plain text, not JSON", undefined);
    expect(seen[2]).toBe("plain text, not JSON");
    await resolved.invoke("[1, 2", undefined);
    expect(seen[4]).toBe("[1, 2");
  });

  it("a registered function shadows a built-in of the same name", async () => {
    const registry = new FunctionRegistry().register("contains", () => "shadowed");
    const resolved = await registry.resolve("contains");
    expect(resolved.origin).toBe("registered");
    expect(await resolved.invoke("text", "x")).toBe("shadowed");
  });

  it("resolves built-in point functions by name and gives them text", async () => {
    const registry = new FunctionRegistry();
    expect(registry.has("icontains")).toBe(true);
    expect(registry.has("not_matches")).toBe(true);
    const resolved = await registry.resolve("icontains");
    expect(resolved.origin).toBe("builtin");
    expect(await resolved.invoke("Located in HAMBURG", "hamburg")).toBe(true);
    // An object is checked as its JSON text.
    expect(await resolved.invoke({ city: "Hamburg" }, '"city":"hamburg"')).toBe(true);
  });

  it("imports module:function refs from a file relative to baseDir, with or without extension", async () => {
    const registry = new FunctionRegistry({ baseDir: FIXTURES_DIR });
    expect(registry.has("scoring:check_question_count")).toBe(false);
    for (const ref of ["scoring:check_question_count", "scoring.mjs:check_question_count"]) {
      const resolved = await registry.resolve(ref);
      expect(resolved.origin).toBe("module");
      expect(await resolved.invoke('{"questions": ["a", "b", "c", "d", "e"]}', undefined)).toBe(
        "pass",
      );
      expect(await resolved.invoke({ questions: [] }, undefined)).toBe("fail");
    }
  });

  it("imports a dotted module path (myapp.scoring:fn) as a folder path", async () => {
    const registry = new FunctionRegistry({ baseDir: FIXTURES_DIR });
    const resolved = await registry.resolve("myapp.scoring:has_title");
    expect(await resolved.invoke('{"title": "Proposal"}', undefined)).toBe(true);
    expect(await resolved.invoke("{}", undefined)).toBe(false);
  });

  it("imports from an installed package only when the application allows that function by name", async () => {
    await expect(new FunctionRegistry().resolve("p-limit:default")).rejects.toBeInstanceOf(
      FunctionResolutionError,
    );
    const registry = new FunctionRegistry({ packageFunctions: ["p-limit:default"] });
    expect(registry.allows("p-limit:default")).toBe(true);
    expect(registry.allows("p-limit:other")).toBe(false);
    const resolved = await registry.resolve("p-limit:default");
    expect(resolved.origin).toBe("module");
  });

  it("names the ref and everything tried when a function cannot be resolved", async () => {
    const registry = new FunctionRegistry({ baseDir: FIXTURES_DIR });

    const noModule = await registry.resolve("nowhere:fn").catch((error: unknown) => error);
    expect(noModule).toBeInstanceOf(FunctionResolutionError);
    const error = noModule as FunctionResolutionError;
    expect(error.ref).toBe("nowhere:fn");
    expect(error.message).toContain("Cannot resolve function 'nowhere:fn'");
    expect(error.tried).toContain("no built-in point function 'nowhere:fn'");
    expect(error.tried.some((entry) => entry.startsWith("module 'nowhere' in"))).toBe(true);
    expect(error.tried).toContain(
      "'nowhere:fn' is not a package function the application allows (packageFunctions)",
    );

    await expect(registry.resolve("scoring:missing_export")).rejects.toThrow(
      /has no export 'missing_export'/,
    );
    await expect(registry.resolve("scoring:not_a_function")).rejects.toThrow(
      /exports 'not_a_function' but it is not a function/,
    );
    await expect(registry.resolve("containz")).rejects.toThrow(/not a 'module:function' reference/);
  });

  it("finds nothing relative to another baseDir", async () => {
    const registry = new FunctionRegistry({ baseDir: "/" });
    await expect(registry.resolve("scoring:check_question_count")).rejects.toBeInstanceOf(
      FunctionResolutionError,
    );
  });
});
