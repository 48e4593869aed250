import { loadBlueprint, runBlueprint } from "evalgate/blueprints";

/** Every prompt of the shipped blueprint to two candidate models, each answer judged per key point. */
export async function stoicismCoverage() {
  const blueprint = await loadBlueprint("examples/blueprints/stoicism.json");
  const run = await runBlueprint(blueprint, {
    models: ["ollama:qwen2.5:7b-instruct", "ollama:llama3.2"],
  });
  const coverage = run.evaluationResults.llmCoverageScores["dichotomy-of-control"];
  console.log(coverage?.["ollama:llama3.2"]);
  return run;
}
