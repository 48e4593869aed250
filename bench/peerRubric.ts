/**
 * The peer benchmark's rubric and content, the same for every system:
 *
 * - 20 criteria: the shipped section gates in config/evaluation/criteria for the problem
 *   statement, methodology, budget and timeline (5 each, score 0–1 with five guideline bands),
 *   put into one catalog through parseCatalog with each weight divided by four;
 * - the content: whole paragraphs from the start of data/proposals/climate-resilience-draft.md
 *   until 1,500 words are taken (the problem statement, the methodology, the budget's opening);
 * - openevals' prompt for one criterion, written the way openevals' own prompts are: the rubric
 *   in `<Rubric>`, instructions, then the content as `{outputs}` in a `<section>` element. A
 *   second layout puts the content first and the criterion last (what prefix caching rewards).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Catalog, type Criterion, parseCatalog } from "../src/criteria/index.js";
import { proposalExcerpt } from "./engineCatalog.js";

export const PEER_GATES = ["problem_statement", "methodology", "budget", "timeline"] as const;
export const PEER_CONTENT_WORDS = 1_500;

const CRITERIA_DIR = new URL("../config/evaluation/criteria/", import.meta.url);

interface GateFile {
  criteria: Array<Record<string, unknown> & { weight?: number }>;
}

/** The 20 criteria of the four gates as one catalog (weights ÷ 4, so they sum to 1). */
export async function peerCatalog(): Promise<Catalog> {
  const criteria: GateFile["criteria"] = [];
  for (const gate of PEER_GATES) {
    const path = fileURLToPath(new URL(`${gate}.json`, CRITERIA_DIR));
    const file = JSON.parse(await readFile(path, "utf8")) as GateFile;
    for (const criterion of file.criteria) {
      criteria.push({ ...criterion, weight: (criterion.weight ?? 0) / PEER_GATES.length });
    }
  }
  const input = {
    id: "bench_peer_20",
    name: "Peer benchmark: four section gates",
    version: "1.0",
    passingThreshold: 0.7,
    criteria,
  };
  return parseCatalog(JSON.stringify(input), { format: "json", source: "bench/peerRubric.ts" });
}

export function peerContent(): Promise<string> {
  return proposalExcerpt(PEER_CONTENT_WORDS);
}

/** Braces are template syntax in openevals' prompt strings (f-string templates). */
function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, (brace) => brace + brace);
}

function rubricOf(criterion: Criterion): string {
  const lines = [`Criterion: ${criterion.title}`, criterion.description];
  const method = criterion.method;
  if (method.kind === "score" && method.guidelines !== undefined) {
    lines.push("Scoring guidelines:");
    for (const [band, text] of Object.entries(method.guidelines)) lines.push(`- ${band}: ${text}`);
  }
  return escapeBraces(lines.join("\n"));
}

const ROLE =
  "You are an expert grant reviewer evaluating one section of a funding proposal. Your task is to assign a score based on the following rubric:";
const INSTRUCTIONS = [
  "<Instructions>",
  "- Read the proposal section carefully.",
  "- Judge it against this criterion only, and cite the passages your score rests on.",
  "- Give 1.0 only when the criterion is fully met with convincing evidence.",
  "</Instructions>",
].join("\n");

/** openevals' prompt for one criterion: rubric first, the content last (openevals' own style). */
export function openevalsPrompt(criterion: Criterion): string {
  return [
    ROLE,
    `<Rubric>\n${rubricOf(criterion)}\n</Rubric>`,
    INSTRUCTIONS,
    "<section>\n{outputs}\n</section>",
  ].join("\n\n");
}

/** The same prompt with the content first and the criterion last. */
export function openevalsContentFirstPrompt(criterion: Criterion): string {
  return [
    "You are an expert grant reviewer evaluating one section of a funding proposal.",
    "<section>\n{outputs}\n</section>",
    INSTRUCTIONS,
    `Assign a score based on the following rubric:\n<Rubric>\n${rubricOf(criterion)}\n</Rubric>`,
  ].join("\n\n");
}
