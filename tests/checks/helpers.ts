import { fileURLToPath } from "node:url";
import { type Criterion, type CriterionInput, CriterionSchema } from "../../src/criteria/model.js";

export const FIXTURES_DIR = fileURLToPath(new URL("../fixtures/checks/", import.meta.url));

/** A criterion parsed through the real schema, with defaults filled in. */
export function criterion(method: CriterionInput["method"], id = "c1"): Criterion {
  return CriterionSchema.parse({
    id,
    title: "Test criterion",
    description: "What the test checks.",
    weight: 1,
    method,
  });
}

export const QUIZ_LEVELS = [
  { id: "fail", label: "Fail", description: "Too few questions", score: 0 },
  { id: "pass", label: "Pass", description: "Enough questions", score: 0.7 },
  { id: "excellent", label: "Excellent", description: "Many questions", score: 1 },
];
