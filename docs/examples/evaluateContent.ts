import { evaluateContent, loadCatalog, type ModelSource } from "evalgate";

/** Judge one proposal section against a shipped catalog — no graph needed. */
export async function judgeBudget(
  budgetText: string,
  model: ModelSource = "ollama:qwen2.5:7b-instruct",
) {
  const catalog = await loadCatalog("config/evaluation/criteria/budget.json");
  const result = await evaluateContent({
    content: budgetText,
    catalog,
    model,
    contentType: "budget",
  });
  console.log(result.passed, result.overallScore, result.verdict);
  for (const c of result.criteria) console.log(c.id, c.native, c.met, c.reasoning);
  return result;
}
