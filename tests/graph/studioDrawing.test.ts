import { describe, expect, it } from "vitest";
import { buildProposalGraph, LOAD_RFP_NODE } from "../../src/graph/proposalGraph.js";
import { stageNodeNames } from "../../src/graph/stages.js";
import { STAGE_IDS } from "./proposalHarness.js";

describe("the proposal graph as LangGraph Studio draws it", () => {
  it("declares every edge a run can take", async () => {
    const drawing = await buildProposalGraph().compile().getGraph();
    const edges = new Set(drawing.edges.map((e) => `${e.source} -> ${e.target}`));
    const has = (source: string, target: string) =>
      expect(edges.has(`${source} -> ${target}`), `${source} -> ${target}`).toBe(true);

    has("__start__", LOAD_RFP_NODE);
    has(LOAD_RFP_NODE, stageNodeNames({ id: "research" }).generate);
    has(LOAD_RFP_NODE, "__end__"); // no RFP
    for (const [index, id] of STAGE_IDS.entries()) {
      const names = stageNodeNames({ id });
      expect(Object.keys(drawing.nodes)).toEqual(
        expect.arrayContaining([names.generate, names.startEvaluate, names.evaluate, names.review]),
      );
      has(names.generate, names.startEvaluate);
      has(names.startEvaluate, names.evaluate);
      // Nothing reaches the evaluation without passing the node that writes `evaluating`.
      const intoEvaluation = drawing.edges.filter((e) => e.target === names.evaluate);
      expect(intoEvaluation.map((e) => e.source)).toEqual([names.startEvaluate]);
      has(names.generate, names.review); // a failed generation
      has(names.evaluate, names.review);
      has(names.review, names.generate); // revise, retry of a failed generation
      has(names.review, names.startEvaluate); // retry
      has(names.review, names.review); // the revision limit
      const next = STAGE_IDS[index + 1];
      has(names.review, next === undefined ? "__end__" : stageNodeNames({ id: next }).generate);
      // A stage already approved is skipped: the review can reach every later stage and the end.
      for (const later of STAGE_IDS.slice(index + 1))
        has(names.review, stageNodeNames({ id: later }).generate);
      has(names.review, "__end__");
      // Nothing goes back to an earlier stage.
      for (const earlier of STAGE_IDS.slice(0, index)) {
        expect(edges.has(`${names.review} -> ${stageNodeNames({ id: earlier }).generate}`)).toBe(
          false,
        );
      }
    }
  });
});
