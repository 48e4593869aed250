/**
 * The catalog's few-shot setting, in every form that declares it: evalgate's own model (JSON and
 * TOON), an evaluation-criteria JSON file, and the TOON criteria dialect's meta row; defaults
 * filled in, and values out of range refused with the field named.
 */
import { describe, expect, it } from "vitest";
import { parseCatalog } from "../../src/criteria/parse.js";

const NATIVE = {
  id: "n",
  name: "Native",
  version: "1",
  fewShot: { enabled: true, maxExamples: 2 },
  criteria: [
    { id: "a", title: "A", description: "Is A there?", weight: 1, method: { kind: "check" } },
  ],
};

const EVALUATION_CRITERIA = {
  name: "Budget",
  version: "2",
  fewShot: { enabled: true, tokenBudget: 300 },
  criteria: [{ id: "costs", name: "Costs", description: "Are costs justified?", weight: 1 }],
};

const DIALECT = (meta: string, values: string) => `meta{version,program${meta}}:
  1.0,"Programme"${values}
criteria[1,]{id,type,weight,title,prompt}:
  c1,score,1,Innovation,"How innovative is it?"
`;

describe("the catalog's fewShot setting", () => {
  it("is read from evalgate's own model and an evaluation-criteria file, defaults filled in", () => {
    const native = parseCatalog(JSON.stringify(NATIVE), { format: "json", source: "n.json" });
    expect(native.fewShot).toEqual({ enabled: true, maxExamples: 2, tokenBudget: 600 });
    const criteria = parseCatalog(JSON.stringify(EVALUATION_CRITERIA), {
      format: "json",
      source: "budget.json",
    });
    expect(criteria.fewShot).toEqual({ enabled: true, maxExamples: 3, tokenBudget: 300 });
  });

  it("is absent when a catalog does not mention it", () => {
    const { fewShot: _, ...plain } = NATIVE;
    expect(parseCatalog(JSON.stringify(plain), { format: "json" }).fewShot).toBeUndefined();
    expect(parseCatalog(DIALECT("", ""), { format: "toon" }).fewShot).toBeUndefined();
  });

  it("is read from the TOON criteria dialect's meta row", () => {
    const text = DIALECT(",few_shot,few_shot_examples,few_shot_tokens", ",true,4,800");
    expect(parseCatalog(text, { format: "toon" }).fewShot).toEqual({
      enabled: true,
      maxExamples: 4,
      tokenBudget: 800,
    });
    const sizeOnly = parseCatalog(DIALECT(",few_shot_examples", ",2"), { format: "toon" });
    expect(sizeOnly.fewShot).toEqual({ enabled: false, maxExamples: 2, tokenBudget: 600 });
  });

  it("refuses values out of range and unknown keys, naming the field", () => {
    const tooMany = { ...NATIVE, fewShot: { enabled: true, maxExamples: 11 } };
    expect(() => parseCatalog(JSON.stringify(tooMany), { format: "json" })).toThrow(/maxExamples/);
    const typo = { ...EVALUATION_CRITERIA, fewShot: { enabled: true, maxExampels: 2 } };
    expect(() => parseCatalog(JSON.stringify(typo), { format: "json" })).toThrow(/maxExampels/);
    const hugeBudget = DIALECT(",few_shot_tokens", ",100000");
    expect(() => parseCatalog(hugeBudget, { format: "toon" })).toThrow(/few_shot_tokens/);
    const notBoolean = DIALECT(",few_shot", ",yes");
    expect(() => parseCatalog(notBoolean, { format: "toon" })).toThrow(/few_shot/);
  });
});
