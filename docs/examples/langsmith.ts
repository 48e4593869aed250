import { type ModelSource, parseCatalog } from "evalgate";
import { createCatalogEvaluators } from "evalgate/evaluators";
import type { Client } from "langsmith";
import { type ExperimentResultRow, evaluate } from "langsmith/evaluation";
import type { Example } from "langsmith/schemas";

/** What a good project summary does: a judged key point, closeness to the reference, a ban. */
const summaryCatalog = parseCatalog(
  JSON.stringify({
    id: "summary",
    points: [
      "States who benefits and how many.",
      { fn: "rouge_l", multiplier: 2 },
      ["not_icontains", "guaranteed"],
    ],
  }),
  { format: "json", source: "summary" },
);

/** A LangSmith experiment on `data`: every example's summary scored by the catalog, judged once. */
export async function summaryExperiment(
  summarise: (inputs: { project: string }) => Promise<{ answer: string }>,
  data: string | Example[],
  options: { model?: ModelSource; client?: Client; uploadRuns?: boolean } = {},
): Promise<ExperimentResultRow[]> {
  const { evaluators, overall } = await createCatalogEvaluators(summaryCatalog, {
    model: options.model ?? "ollama:qwen2.5:7b-instruct",
  });
  const experiment = await evaluate(summarise, {
    data,
    evaluators: [...evaluators, overall],
    experimentPrefix: "summary",
    ...(options.client === undefined ? {} : { client: options.client }),
    ...(options.uploadRuns === undefined ? {} : { uploadRuns: options.uploadRuns }),
  });
  for (const row of experiment.results) {
    for (const { key, score, comment } of row.evaluationResults.results) {
      console.log(row.example.id, key, score, comment);
    }
  }
  return experiment.results;
}
