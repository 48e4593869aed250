/**
 * The words a user reads for the proposal graph's stages and steps: a stage's title, a finished
 * step ("Solution Sought written") and the step a stopped run has left to do ("writing Solution
 * Sought"). A node no table knows (a user's own graph) is shown as words, never bare.
 */
import { LOAD_RFP_NODE, loadProposalConfig } from "./proposalConfig.js";
import { CONNECTION_PAIRS_STAGE, RESEARCH_STAGE, SOLUTION_STAGE } from "./stages.js";

let stageTitles: Readonly<Record<string, string>> | undefined;

/** The three inputs' titles, then the shipped sections' (config/proposal.json). */
function knownStageTitles(): Readonly<Record<string, string>> {
  stageTitles ??= Object.fromEntries(
    [RESEARCH_STAGE, SOLUTION_STAGE, CONNECTION_PAIRS_STAGE, ...loadProposalConfig()].map((s) => [
      s.id,
      s.title,
    ]),
  );
  return stageTitles;
}

/** `problem_statement`, `ProblemStatement`, `problem-statement` → `problem statement`. */
export function wordsOf(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.:]+/g, " ")
    .trim()
    .toLowerCase();
}

export function capitalised(text: string): string {
  return text === "" ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`;
}

/** A stage's title ("connection_pairs" → "Connection Pairs"); an unknown id in the same title case. */
export function stageName(stage: string): string {
  return knownStageTitles()[stage] ?? wordsOf(stage).split(" ").map(capitalised).join(" ");
}

type StepWords = (stage: string) => string;

/** The graph's step prefixes, longest first: what a finished step did, and what one left does. */
const STEPS: ReadonlyArray<[string, { done: StepWords; toDo: StepWords }]> = [
  ["startEvaluate", { done: (s) => `Judging ${s}`, toDo: (s) => `judging ${s}` }],
  ["generate", { done: (s) => `${s} written`, toDo: (s) => `writing ${s}` }],
  ["evaluate", { done: (s) => `${s} judged`, toDo: (s) => `judging ${s}` }],
  ["review", { done: (s) => `decision on ${s} applied`, toDo: (s) => `the review of ${s}` }],
];

function stepWords(node: string, which: "done" | "toDo"): string {
  if (node === LOAD_RFP_NODE) {
    return which === "done" ? "request for proposals read" : "reading the request for proposals";
  }
  for (const [prefix, words] of STEPS) {
    const rest = node.slice(prefix.length);
    // `ConnectionPairs` → the stage id `connection_pairs`.
    if (node.startsWith(prefix) && /^[A-Z]/.test(rest)) {
      return words[which](stageName(wordsOf(rest).replaceAll(" ", "_")));
    }
  }
  return wordsOf(node);
}

/** A finished step of the graph in words ("startEvaluateSolution" → "Judging Solution Sought"). */
export function stepName(node: string): string {
  return stepWords(node, "done");
}

/** The steps a stopped run has left, in words ("generateSolution" → "writing Solution Sought"). */
export function stepsLeft(nodes: readonly string[]): string {
  return [...new Set(nodes.map((node) => stepWords(node, "toDo")))].join(", ");
}
