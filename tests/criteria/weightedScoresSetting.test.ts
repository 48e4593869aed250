/**
 * The catalog's weightedScores setting in every form that declares it: evalgate's own JSON, an
 * evaluation-criteria file and the TOON criteria dialect's meta row; a value that is not a boolean
 * is refused with the field named; absent, it is absent (off).
 */
import { describe, expect, it } from "vitest";
import { parseCatalog } from "../../src/criteria/parse.js";

const dialect = (meta: string, values: string) => `meta{version,program${meta}}:
  "3","Tidal Grants"${values}
criteria[1,]{id,type,weight,title,prompt}:
  impact,score,1,Impact,"How large is the impact on coastal towns?"
`;

describe("the catalog's weightedScores setting", () => {
  it("is read from evalgate's own JSON and from an evaluation-criteria file", () => {
    const own = {
      id: "own",
      name: "Own",
      version: "1",
      weightedScores: true,
      criteria: [
        {
          id: "a",
          title: "A",
          description: "Rate A.",
          weight: 1,
          method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
        },
      ],
    };
    expect(parseCatalog(JSON.stringify(own), { format: "json" }).weightedScores).toBe(true);
    const file = {
      name: "Outreach",
      version: "2",
      weightedScores: false,
      criteria: [{ id: "reach", name: "Reach", description: "Who is reached?", weight: 1 }],
    };
    expect(parseCatalog(JSON.stringify(file), { format: "json" }).weightedScores).toBe(false);
  });

  it("is read from the TOON criteria dialect's meta row, and absent when not given", () => {
    expect(
      parseCatalog(dialect(",weighted_scores", ",true"), { format: "toon" }).weightedScores,
    ).toBe(true);
    expect(parseCatalog(dialect("", ""), { format: "toon" }).weightedScores).toBeUndefined();
  });

  it("refuses a value that is not true or false, naming the field", () => {
    expect(() => parseCatalog(dialect(",weighted_scores", ",often"), { format: "toon" })).toThrow(
      /weighted_scores/,
    );
    const file = {
      name: "Outreach",
      version: "2",
      weightedScores: "yes",
      criteria: [{ id: "reach", name: "Reach", description: "Who is reached?", weight: 1 }],
    };
    expect(() => parseCatalog(JSON.stringify(file), { format: "json" })).toThrow(/weightedScores/);
  });
});
