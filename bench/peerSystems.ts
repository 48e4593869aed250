/**
 * The systems the peer benchmark runs against its server, each the way its users run it:
 *
 * - openevals `createLLMAsJudge`, one evaluator per criterion (the criterion is its prompt,
 *   `continuous: true`: a 0–1 score with reasoning, openevals' structured output through
 *   ChatOllama's JSON Schema `format`), awaited one after another or all at once (Promise.all);
 * - evalgate `evaluateContent` with an Ollama judge from `createChatModel` (src/llm: ChatOllama,
 *   its own fetch, num_ctx sizing, keep_alive) in each judge mode, concurrency and parallel slots
 *   equal to the server's slots, the injection guard on (the default) unless a row says off.
 *
 * A run that does not come back with a score for every criterion throws: it would measure
 * something else than judging.
 */
import { ChatOllama } from "@langchain/ollama";
import { createLLMAsJudge } from "openevals";
import type { Catalog, Criterion } from "../src/criteria/index.js";
import { evaluateContent } from "../src/engine/evaluateContent.js";
import type { EvaluationMode } from "../src/engine/options.js";
import { createChatModel } from "../src/llm/chatModel.js";

export const PEER_MODEL = "qwen2.5:7b-instruct";

export interface PeerInput {
  url: string;
  catalog: Catalog;
  content: string;
  slots: number;
}

export interface PeerSystem {
  name: string;
  /** The row the goals compare against: evalgate's default, openevals parallel, sequential. */
  role?: "default" | "openevals-parallel" | "openevals-sequential";
  /** What the run says about itself (evalgate: the judge mode the result reports). */
  run(input: PeerInput): Promise<string>;
}

/** A run did not judge every criterion. */
export class PeerRunError extends Error {
  constructor(system: string, problem: string) {
    super(`bench:peer: the ${system} run is not valid: ${problem}`);
    this.name = "PeerRunError";
  }
}

type PromptOf = (criterion: Criterion) => string;

function openevalsJudges(input: PeerInput, promptOf: PromptOf) {
  // numCtx set as a careful user would: Ollama's default window would cut these prompts.
  const judge = new ChatOllama({
    model: PEER_MODEL,
    baseUrl: input.url,
    temperature: 0.1,
    numCtx: 8_192,
  });
  return input.catalog.criteria.map((criterion) => ({
    id: criterion.id,
    evaluate: createLLMAsJudge({
      prompt: promptOf(criterion),
      judge,
      continuous: true,
      feedbackKey: criterion.id,
    }),
  }));
}

function checkScores(system: string, results: ReadonlyArray<{ score?: unknown }>, want: number) {
  const bad = results.filter((r) => typeof r.score !== "number");
  if (results.length !== want || bad.length > 0) {
    throw new PeerRunError(system, `${bad.length} of ${results.length} answers have no score`);
  }
}

export function openevalsSystem(
  name: string,
  how: "sequential" | "parallel",
  promptOf: PromptOf,
  role?: PeerSystem["role"],
): PeerSystem {
  return {
    name,
    role,
    async run(input) {
      const judges = openevalsJudges(input, promptOf);
      const outputs = { outputs: input.content };
      const results: Array<{ score?: unknown }> = [];
      if (how === "sequential") {
        for (const judge of judges) results.push(await judge.evaluate(outputs));
      } else {
        results.push(...(await Promise.all(judges.map((judge) => judge.evaluate(outputs)))));
      }
      checkScores(name, results, judges.length);
      return `${judges.length} evaluators`;
    },
  };
}

export function evalgateSystem(
  name: string,
  mode: EvaluationMode,
  options: { injectionGuard?: boolean; role?: PeerSystem["role"] },
): PeerSystem {
  return {
    name,
    role: options.role,
    async run(input) {
      const model = createChatModel(`ollama:${PEER_MODEL}`, {
        baseUrl: input.url,
        timeoutMs: 600_000,
        maxRetries: 0,
      });
      const result = await evaluateContent({
        content: input.content,
        catalog: input.catalog,
        model,
        mode,
        concurrency: input.slots,
        parallelSlots: input.slots,
        // Absent: the default (on, unless EVALGATE_INJECTION_GUARD says off).
        ...(options.injectionGuard === undefined ? {} : { injectionGuard: options.injectionGuard }),
      });
      if (result.notEvaluated.length > 0) {
        throw new PeerRunError(name, `not evaluated: ${result.notEvaluated.join(", ")}`);
      }
      // A guard that failed would hold the result for review: not the run users get.
      const guardProblem = result.warnings.find((w) => w.includes("injection guard"));
      if (guardProblem !== undefined) throw new PeerRunError(name, guardProblem);
      const judged = result.judgeMode;
      return judged === undefined ? "" : `${judged.mode}, ${judged.groups} groups`;
    },
  };
}
