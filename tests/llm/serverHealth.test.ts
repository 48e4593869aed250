/**
 * Which failures take a pool's server out, and for how long: on explicit instants (the functions
 * take `now`), never on the clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ModelContentPolicyError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelTimeoutError,
  ModelUnavailableError,
  type ModelUnavailableError as Unavailable,
} from "../../src/llm/errors.js";
import {
  bringBack,
  isServerFault,
  outOfPool,
  resetServerHealth,
  takeOut,
} from "../../src/llm/serverState.js";

const where = { provider: "ollama", model: "m", baseUrl: "http://gpu1:11434" };
const unavailable = (reason: Unavailable["reason"]) =>
  new ModelUnavailableError(reason, "x", where);

afterEach(() => resetServerHealth());

describe("isServerFault", () => {
  it.each([
    "connection-refused",
    "connection-reset",
    "unreachable",
    "server-error",
    "incomplete-response",
    "model-not-found",
  ] as const)("%s is the server's fault", (reason) => {
    expect(isServerFault(unavailable(reason))).toBe(true);
  });

  it("a 429 is the server's", () => {
    expect(isServerFault(new ModelRateLimitError(undefined, "slow down", where))).toBe(true);
  });

  it("a timeout is the server's: another server may answer in time", () => {
    expect(isServerFault(new ModelTimeoutError(1_000, where))).toBe(true);
  });

  it.each([
    ["no free slot (busy)", unavailable("busy")],
    ["an unknown failure", unavailable("unknown")],
    ["a rejected request", new ModelRequestError(400, "bad", where)],
    ["a content-policy refusal", new ModelContentPolicyError("no", where)],
    // An empty or unusable answer moves a pool's call by the answer's text (serverPool.ts).
    ["an empty answer", new ModelResponseError("empty", where)],
  ])("%s is not", (_name, error) => {
    expect(isServerFault(error)).toBe(false);
  });
});

describe("takeOut", () => {
  const key = "http://gpu1:11434";

  it("takes a server out for the cooldown, doubled for each failure in a row, at most 16 times", () => {
    const lengths: number[] = [];
    let now = 0;
    for (let failure = 0; failure < 7; failure++) {
      takeOut(key, unavailable("server-error"), 1_000, now);
      const out = outOfPool(key, now);
      lengths.push((out?.until ?? now) - now);
      now = out?.until ?? now;
    }
    expect(lengths).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 16_000, 16_000]);
    expect(outOfPool(key, now)).toBeUndefined();
  });

  it("a 429 with Retry-After is out for exactly that long, and says why", () => {
    takeOut(key, new ModelRateLimitError(5_000, "queue full", where), 1_000, 100);
    expect(outOfPool(key, 5_099)?.why).toContain("queue full");
    expect(outOfPool(key, 5_100)).toBeUndefined();
  });

  it("a 429 asking for a day is out for at most the longest time out (16 × the cooldown)", () => {
    takeOut(key, new ModelRateLimitError(86_400_000, "come back tomorrow", where), 1_000, 100);
    expect(outOfPool(key, 16_099)?.why).toContain("come back tomorrow");
    expect(outOfPool(key, 16_100)).toBeUndefined();
  });

  it("an answer brings it back and forgets its failures", () => {
    takeOut(key, unavailable("connection-refused"), 1_000, 0);
    takeOut(key, unavailable("connection-refused"), 1_000, 0);
    bringBack(key);
    expect(outOfPool(key, 0)).toBeUndefined();
    takeOut(key, unavailable("connection-refused"), 1_000, 0);
    expect(outOfPool(key, 0)?.until).toBe(1_000);
  });
});
