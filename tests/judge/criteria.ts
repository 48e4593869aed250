import { type Criterion, CriterionSchema } from "../../src/criteria/model.js";

/** The criteria the judge tests read answers for, one per answer contract. */

export const GUIDELINES = {
  excellent: "A genuinely new approach, clearly beyond the state of the art.",
  good: "A clear advance over existing solutions.",
  adequate: "Some new elements, mostly known techniques.",
  poor: "Little that is new.",
  inadequate: "Nothing new, or no description of the approach.",
};

export const scoreFivePoint: Criterion = CriterionSchema.parse({
  id: "c2",
  title: "Innovation",
  description: "Rate the technological innovation (1-5).",
  weight: 0.4,
  method: { kind: "score", scale: { min: 1, max: 5, integer: true }, guidelines: GUIDELINES },
});

export const scoreUnit: Criterion = CriterionSchema.parse({
  id: "feasibility",
  title: "Feasibility",
  description: "How feasible is the plan with the stated resources?",
  weight: 1,
  method: { kind: "score", scale: { min: 0, max: 1 }, guidelines: GUIDELINES },
});

export const knockoutCheck: Criterion = CriterionSchema.parse({
  id: "c1",
  title: "Hamburg Base",
  description: "Is the company based in Hamburg?",
  weight: 1,
  critical: true,
  knockout: true,
  method: { kind: "check", expectedOutcome: "The company's registered address is in Hamburg." },
});

export const clarityLevels: Criterion = CriterionSchema.parse({
  id: "clarity",
  title: "Clarity",
  description: "How clear and understandable the content is",
  weight: 0.4,
  method: {
    kind: "levels",
    levels: [
      { id: "fail", label: "Fail", description: "Unclear", score: 0 },
      {
        id: "needs_work",
        label: "Needs Work",
        description: "Understandable with effort",
        score: 0.4,
      },
      { id: "pass", label: "Pass", description: "Understandable", score: 0.7 },
      {
        id: "excellent",
        label: "Excellent",
        description: "Crystal clear with good examples",
        score: 1,
        indicators: ["Uses concrete examples", "Logical flow", "No jargon"],
      },
    ],
  },
});

export const virtuePoint: Criterion = CriterionSchema.parse({
  id: "p1",
  title: "Virtue is the only good",
  description: "Virtue is the only good (wisdom, justice, courage, temperance).",
  weight: 3,
  method: {
    kind: "point",
    text: "Virtue is the only good (wisdom, justice, courage, temperance).",
  },
});
