import { type Catalog, evaluateContent, type ModelSource } from "evalgate";

/** Three judges per criterion; where they disagree, the result waits for a human reviewer. */
export async function judgedByPanel(
  content: string,
  catalog: Catalog,
  judges: ModelSource[] = ["ollama:qwen2.5:7b-instruct", "ollama:llama3.1:8b", "ollama:mistral:7b"],
) {
  const result = await evaluateContent({
    content,
    catalog,
    judges,
    panel: { aggregate: "median", minAgreement: 0.67 },
  });
  // { judges, aggregate, minAgreement, agreement (alpha over the criteria), gaps }
  console.log(result.panel);
  // { answers: [{ judge, evaluated, score, native, reasoning, judgeError? }], aggregate, agreement, metric }
  console.log(result.criteria[0]?.panel);
  return result;
}
