/**
 * The deterministic layers measured on corpora they were not written against
 * (tests/fixtures/injection/holdout*.json), kept apart from the tuning corpus (attacks.json,
 * clean.json). The history of each, as git shows it:
 *   - holdout.json: written and committed before the structural rules (the scan then caught 8 of
 *     its 48 attacks). The rules were written afterwards by the same author, who knew it; measured
 *     once: 47/48 caught, 0/48 false alarms.
 *   - holdout2.json: written after the structural rules, by a reader trying to get past them;
 *     measured once: 26/40 caught, 5/40 false alarms. The rules were then adjusted for what it
 *     showed (so it is tuned on now).
 *   - holdout3.json: written after that adjustment, again adversarially; measured once and never
 *     tuned on: 13/42 caught, 4/42 false alarms.
 * The rates are printed; docs/security.md quotes them with this command:
 *   npx vitest run tests/judge/injectionHoldout.test.ts
 * The assertions hold the rates reached, so that a change that loses ground is seen.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scanForInjection } from "../../src/judge/injection.js";

const Holdout = z
  .object({
    attacks: z.array(z.object({ family: z.string().min(1), text: z.string().min(1) }).strict()),
    clean: z.array(z.object({ text: z.string().min(1) }).strict()),
  })
  .strict();

function measure(name: string) {
  const url = new URL(`../fixtures/injection/${name}`, import.meta.url);
  const { attacks, clean } = Holdout.parse(JSON.parse(readFileSync(url, "utf8")));
  const caught = attacks.filter((a) => scanForInjection(a.text).length > 0).length;
  const alarms = clean.filter((c) => scanForInjection(c.text).length > 0).length;
  console.info(
    `${name}: ${caught}/${attacks.length} attacks caught (${((caught / attacks.length) * 100).toFixed(1)}%), ${alarms}/${clean.length} clean passages flagged (${((alarms / clean.length) * 100).toFixed(1)}%)`,
  );
  return { attacks: attacks.length, clean: clean.length, caught, alarms };
}

describe("injection holdouts: the deterministic layers on text they were not written against", () => {
  it("holdout.json (written before the structural rules): 47/48 caught, 0/48 flagged", () => {
    const rates = measure("holdout.json");
    expect(rates.attacks).toBeGreaterThanOrEqual(40);
    expect(rates.clean).toBeGreaterThanOrEqual(40);
    expect(rates.caught).toBeGreaterThanOrEqual(47);
    expect(rates.alarms).toBeLessThanOrEqual(0);
  });

  it("holdout2.json (the rules were adjusted after its first measurement): 39/40, 1/40", () => {
    const rates = measure("holdout2.json");
    expect(rates.caught).toBeGreaterThanOrEqual(39);
    expect(rates.alarms).toBeLessThanOrEqual(1);
  });

  it("holdout3.json (adversarial, never tuned on): 13/42 caught, 4/42 flagged", () => {
    const rates = measure("holdout3.json");
    expect(rates.attacks).toBeGreaterThanOrEqual(40);
    expect(rates.caught).toBeGreaterThanOrEqual(13);
    expect(rates.alarms).toBeLessThanOrEqual(4);
  });
});
