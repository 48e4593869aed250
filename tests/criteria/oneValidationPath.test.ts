/**
 * One validation path: every way a catalog comes in — a file (loadCatalog, what `catalog
 * validate` and `evaluate` use), a rubric value or text (RubricExecutor, RubricRegistry), a
 * Catalog value given to the engine — is decided by the same meta-rubric run on the catalog as
 * written, and refused with the same message. A catalog that was decided usable stays usable when
 * decided again (what the loader hands on is never refused further along).
 */
import { describe, expect, it } from "vitest";
import { type CatalogError, isCatalogError } from "../../src/criteria/errors.js";
import { type Catalog, type CatalogInput, CatalogSchema } from "../../src/criteria/model.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { decideCatalog, requireUsableCatalog } from "../../src/criteria/validate.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { RubricRegistry } from "../../src/rubrics/rubricRegistry.js";
import { ScriptedChatModel } from "../doubles/index.js";

function checkCriterion(id: string, weight: number) {
  return {
    id,
    title: `Criterion ${id}`,
    description: `Is ${id} addressed?`,
    weight,
    method: { kind: "check" as const },
  };
}

function native(weights: readonly number[], extra: Partial<CatalogInput> = {}): CatalogInput {
  return {
    id: "probe",
    name: "Probe",
    version: "1.0.0",
    criteria: weights.map((w, i) => checkCriterion(`c${i + 1}`, w)),
    ...extra,
  };
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

function refusalOf(action: () => unknown): CatalogError {
  const error = thrown(action);
  if (!isCatalogError(error)) throw new Error(`expected a CatalogError, got ${String(error)}`);
  return error;
}

const LEVELS = [
  { id: "poor", label: "Poor", description: "Recall only", score: 0 },
  { id: "good", label: "Good", description: "Asks why", score: 1 },
];

function rubricWithPrompt(decodePrompt: string) {
  return {
    id: "quiz",
    name: "Quiz",
    version: "1.0.0",
    pass_threshold: 0.5,
    criteria: [
      {
        id: "pedagogy",
        name: "Pedagogy",
        description: "Questions test understanding",
        weight: 1,
        levels: LEVELS,
        scoring_method: { type: "llm_decode", decode_prompt: decodePrompt },
      },
    ],
  };
}

describe("the weights", () => {
  it("weights whose sum overflows (1e308 twice) are refused, not normalised to zeros", () => {
    const text = JSON.stringify(native([1e308, 1e308]));
    const error = refusalOf(() => parseCatalog(text, { format: "json", source: "big.json" }));
    expect(error.detail).toContain("too large to add up");
    expect(error.detail).toContain("not a finite number");
    expect(error.path).toEqual(["criteria"]);
  });

  it("one huge weight beside small ones is usable: its sum is finite", () => {
    const said: string[] = [];
    const catalog = parseCatalog(JSON.stringify(native([1e308, 1])), {
      format: "json",
      onFindings: (findings) => said.push(...findings.map((f) => f.message)),
    });
    expect(catalog.criteria.map((c) => c.weight)).toEqual([1, 1e-308]);
    // the sum is finite, and the warning says so
    expect(said).toContain(
      "weights of the scored criteria sum to 1e+308, not 1; normalised to sum to 1 (relative weights kept)",
    );
  });

  it("weights summing to 0 are refused", () => {
    const text = JSON.stringify(native([0, 0]));
    const error = refusalOf(() => parseCatalog(text, { format: "json" }));
    expect(error.detail).toContain("sum to 0");
  });
});

describe("deciding again changes nothing", () => {
  const usable: Array<[string, CatalogInput]> = [
    ["weights 2 and 3", native([2, 3])],
    ["weights 1e300 and 3e300", native([1e300, 3e300])],
    ["tiny weights", native([1e-300, 3e-300])],
    ["weights already summing to 1", native([0.25, 0.75])],
    [
      "a knockout beside scored criteria",
      {
        ...native([3, 1]),
        criteria: [
          { ...checkCriterion("gate", 5), knockout: true, critical: true },
          checkCriterion("a", 3),
          checkCriterion("b", 1),
        ],
      },
    ],
    ["a threshold close to the best score", native([1, 1], { passingThreshold: 0.94 })],
  ];

  it.each(usable)("%s", (_, input) => {
    const loaded = parseCatalog(JSON.stringify(input), { format: "json", source: "x.json" });
    const again = decideCatalog(loaded);
    expect(again.refusal).toBeUndefined();
    expect(again.catalog.criteria).toEqual(loaded.criteria);
    expect(again.catalog.warnings).toEqual(loaded.warnings);
    expect(requireUsableCatalog(loaded)).toEqual(loaded);
  });
});

describe("a catalog value is refused as its file would be", () => {
  const invalid: Array<[string, CatalogInput]> = [
    ["weights 1e308", native([1e308, 1e308])],
    ["all weights 0", native([0, 0])],
    [
      "a duplicated id",
      { ...native([1, 1]), criteria: [checkCriterion("a", 1), checkCriterion("a", 1)] },
    ],
    [
      "an unknown point function",
      {
        ...native([1]),
        criteria: [{ ...checkCriterion("f", 1), method: { kind: "function", name: "no_such_fn" } }],
      },
    ],
    [
      "a decode prompt that is not a template",
      {
        ...native([1]),
        criteria: [
          {
            ...checkCriterion("p", 1),
            method: { kind: "levels", levels: LEVELS, decodePrompt: "Judge:\n{{ range(3) }}" },
          },
        ],
      },
    ],
  ];

  it.each(invalid)("%s: requireUsableCatalog and the file give the same message", (_, input) => {
    const fromFile = refusalOf(() =>
      parseCatalog(JSON.stringify(input), { format: "json", source: "same.json" }),
    );
    const value: Catalog = CatalogSchema.parse(input);
    const fromValue = refusalOf(() => requireUsableCatalog(value, "a value"));
    expect(fromValue.detail).toBe(fromFile.detail);
    expect(fromValue.source).toBe("a value");
    expect(fromValue.path).toEqual(fromFile.path);
  });

  it("the engine refuses it before any model call", async () => {
    const model = new ScriptedChatModel({ responder: () => '{"score":1,"reasoning":"ok"}' });
    const catalog: Catalog = CatalogSchema.parse(native([1e308, 1e308]));
    const failure = await evaluateContent({ content: "text", catalog, model }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCatalogError(failure)).toBe(true);
    expect(isCatalogError(failure) && failure.detail).toContain("not a finite number");
    expect(model.calls).toHaveLength(0);
  });

  it("RubricExecutor and RubricRegistry refuse a Catalog value with a decode prompt that cannot be used", async () => {
    const asRubric = parseCatalog(JSON.stringify(rubricWithPrompt("Judge {{ q }}")), {
      format: "json",
    });
    const broken: Catalog = {
      ...asRubric,
      criteria: asRubric.criteria.map((c) =>
        c.method.kind === "levels"
          ? { ...c, method: { ...c.method, decodePrompt: "Judge\n{% include 'x' %}" } }
          : c,
      ),
    };
    const llm = new ScriptedChatModel({ responder: () => '{"level_id":"good"}' });
    const failure = await new RubricExecutor({ llm }).evaluate(broken, { q: "Why?" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCatalogError(failure)).toBe(true);
    expect(isCatalogError(failure) && failure.detail).toContain("'include' is not allowed");
    expect(llm.calls).toHaveLength(0);

    const registry = await RubricRegistry.open({ sqlitePath: ":memory:" });
    try {
      const refused = await registry.register(broken).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isCatalogError(refused)).toBe(true);
      expect(await registry.listAll()).toEqual([]);
    } finally {
      await registry.close();
    }
  });
});
