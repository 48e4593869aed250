/**
 * The pool benchmark's runs: evalgate's defaults (mode auto, injection guard on) on the peer
 * rubric and content, judged by one server, by a pool of two, and by a pool of two of which one
 * goes down while it holds calls; and the same with several evaluations at once. Each run
 * reports its wall time, what each server answered, and whether anything was lost or judged twice.
 */
import type { Catalog } from "../src/criteria/index.js";
import { evaluateContent } from "../src/engine/evaluateContent.js";
import { createChatModel } from "../src/llm/chatModel.js";
import { type PeerServer, startPeerServer } from "./peerServer.js";
import type { PrefixLatency } from "./peerSlots.js";
import { PEER_MODEL } from "./peerSystems.js";

export interface PoolInput {
  catalog: Catalog;
  content: string;
  latency: PrefixLatency;
  slots: number;
}

export interface PoolRun {
  wallMs: number;
  /** Calls each server answered (a server taken down answers none of the calls it held). */
  answered: number[];
  /** Criteria not evaluated, over every evaluation of the run. */
  lost: number;
  /** Criteria with a judge error. */
  judgeErrors: number;
  /** Group calls answered more than once (the same criteria asked again after an answer). */
  duplicates: number;
  /** Calls moved from a server that failed them. */
  moved: number;
  note: string;
}

/** A problem that makes a run measure something else than judging. */
export class PoolRunError extends Error {
  constructor(problem: string) {
    super(`bench:pool: ${problem}`);
    this.name = "PoolRunError";
  }
}

/** The ids asked in each table prompt a server answered, to find groups answered twice. */
function groupKeys(results: ReadonlyArray<{ traces: ReadonlyArray<{ criterionIds: string[] }> }>) {
  return results.flatMap((r, i) => r.traces.map((t) => `${i}:${t.criterionIds.join(",")}`));
}

/**
 * `evaluations` evaluations at once on `servers`; `kill` (optional) takes one server down once
 * it holds that many calls.
 */
export async function runPool(
  input: PoolInput,
  servers: readonly PeerServer[],
  evaluations: number,
  kill?: { server: PeerServer; whenBusy: number },
  parallelSlots?: number,
): Promise<PoolRun> {
  const model = createChatModel(`ollama:${PEER_MODEL}`, {
    baseUrl: servers.map((s) => s.url).join(","),
    timeoutMs: 600_000,
    maxRetries: 0,
  });
  let killed: Promise<void> | undefined;
  const watch =
    kill === undefined
      ? undefined
      : setInterval(() => {
          if (killed === undefined && kill.server.slots.busy >= kill.whenBusy) {
            killed = kill.server.close();
          }
        }, 1);
  const started = performance.now();
  try {
    const results = await Promise.all(
      Array.from({ length: evaluations }, () =>
        evaluateContent({
          content: input.content,
          catalog: input.catalog,
          model,
          ...(parallelSlots === undefined ? {} : { parallelSlots }),
        }),
      ),
    );
    const wallMs = performance.now() - started;
    const guardProblems = results.flatMap((r) => r.warnings).filter((w) => w.includes("guard"));
    if (guardProblems.length > 0) throw new PoolRunError(guardProblems[0] ?? "");
    const keys = groupKeys(results);
    const answeredBy = results.flatMap((r) => r.traces.map((t) => t.parameters.baseUrl));
    return {
      wallMs,
      answered: servers.map((s) => answeredBy.filter((url) => url === s.url).length),
      lost: results.reduce((n, r) => n + r.notEvaluated.length, 0),
      judgeErrors: results.reduce((n, r) => n + r.criteria.filter((c) => c.judgeError).length, 0),
      duplicates: keys.length - new Set(keys).size,
      moved: results.reduce(
        (n, r) => n + r.traces.filter((t) => t.parameters.failedOver !== undefined).length,
        0,
      ),
      note: results[0]?.judgeMode === undefined ? "" : `${results[0].judgeMode.groups} groups`,
    };
  } finally {
    if (watch !== undefined) clearInterval(watch);
    await killed;
  }
}

/** `count` fresh servers with the input's latency and slots. */
export function startServers(input: PoolInput, count: number): Promise<PeerServer[]> {
  return Promise.all(
    Array.from({ length: count }, () => startPeerServer({ slots: input.slots, ...input.latency })),
  );
}
