/**
 * Screening: every reason to send a result to a person (injection rules, the guard, reasoning
 * against score, unverified quotes, panel gaps and disagreement), worded here as one value.
 * Scores are never changed here.
 */
import { LLM_METHOD_KINDS } from "../criteria/model.js";
import { scanForInjection } from "../judge/injection.js";
import { readReasoningStance } from "../judge/reasoningStance.js";
import { agreementText } from "../scoring/agreement.js";
import { meetsThreshold } from "../scoring/consistency.js";
import type { CriterionResult, PanelSummary } from "../scoring/result.js";

export interface ScreeningReason {
  source: "injection" | "guard" | "panel" | "evidence" | "consistency";
  /** What was found and where, as the result's `humanReviewReasons` says it. */
  message: string;
}

/** A text that reaches the judge, and how a warning names it ("source document a.md"). */
export interface ScreenedText {
  where: string;
  text: string;
}

/** Every string of structured content: its JSON escapes line breaks, hiding line-anchored forgeries. */
function stringsOf(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 64 || typeof value !== "object" || value === null) return [];
  const items = Array.isArray(value) ? value : Object.entries(value).flat();
  return items.flatMap((item) => stringsOf(item, depth + 1));
}

/** The texts that reach the judge from outside (not the caller's catalog, question or reference). */
export function screenedTexts(
  text: string,
  given: {
    content: unknown;
    context?: string;
    documents?: readonly { name: string; text: string }[];
  },
): ScreenedText[] {
  const strings = typeof given.content === "string" ? [] : stringsOf(given.content);
  return [
    { where: "the content", text },
    ...(strings.length === 0
      ? []
      : [{ where: "the content's text fields", text: strings.join("\n") }]),
    ...(given.context === undefined ? [] : [{ where: "the context", text: given.context }]),
    ...(given.documents ?? []).map((d) => ({ where: `source document ${d.name}`, text: d.text })),
  ];
}

export function injectionReasons(texts: readonly ScreenedText[]): ScreeningReason[] {
  return texts.flatMap(({ where, text }) =>
    scanForInjection(text).map((finding) => ({
      source: "injection" as const,
      message: `possible prompt injection in ${where} (${finding.kind}): "${finding.excerpt}"`,
    })),
  );
}

/** The text quoted, cut to `max` characters. */
export function shown(text: string, max: number): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max - 3)}...` : text);
}

/** Why a reasoning contradicts whether its score passes (`met`); which half is right is the reviewer's call. */
export function reasoningContradiction(
  reasoning: string,
  met: boolean | null,
  value: string,
  who = "the judge's",
): string | undefined {
  if (met === null || reasoning.trim() === "") return undefined;
  const stance = readReasoningStance(reasoning);
  const where = stance.clause === undefined ? "" : ` (${shown(stance.clause, 100)})`;
  if (met && stance.verdict === "not met") {
    return `${who} reasoning says it is not met${where} but its score ${value} passes`;
  }
  if (!met && stance.glowing) {
    return `${who} reasoning says it is fully met${where} but its score ${value} fails`;
  }
  return undefined;
}

interface Findings {
  reasons: ScreeningReason[];
  warnings: string[];
}

/**
 * Each reasoning beside the score it gave: a single judge's, or each panel member's own (the
 * panel's composed reasoning lists every member's value, which is no finding of its own).
 */
function judgeReadings(result: CriterionResult) {
  if (result.panel === undefined) {
    const value = String(result.native);
    return [{ who: "the judge's", reasoning: result.reasoning, met: result.met, value }];
  }
  return result.panel.answers.flatMap((a) =>
    a.evaluated && a.score !== null
      ? [
          {
            who: `judge ${a.judge}'s`,
            reasoning: a.reasoning,
            met: meetsThreshold(a.score, result.threshold),
            value: String(a.native),
          },
        ]
      : [],
  );
}

function consistencyFindings(criteria: readonly CriterionResult[]): Findings {
  const found: Findings = { reasons: [], warnings: [] };
  for (const result of criteria) {
    if (!result.evaluated || !LLM_METHOD_KINDS.has(result.method)) continue;
    for (const { who, reasoning, met, value } of judgeReadings(result)) {
      const contradiction = reasoningContradiction(reasoning, met, value, who);
      if (contradiction === undefined) continue;
      found.reasons.push({
        source: "consistency",
        message: `criterion ${result.id}: ${contradiction}`,
      });
      found.warnings.push(
        `${result.id}: reasoning and score disagree (${contradiction}); held for human review`,
      );
    }
  }
  return found;
}

function evidenceReasons(criteria: readonly CriterionResult[]): ScreeningReason[] {
  return criteria.flatMap((result) => {
    const quotes = result.quotes ?? [];
    if (result.met !== true || quotes.length === 0 || quotes.some((q) => q.verified)) return [];
    const listed = quotes.map((q) => shown(q.text, 80)).join(", ");
    const message = `criterion ${result.id} was met on quotes the content does not contain (${listed})`;
    return [{ source: "evidence" as const, message }];
  });
}

function panelReasons(criteria: readonly CriterionResult[], panel: PanelSummary | undefined) {
  if (panel === undefined) return [];
  const { minAgreement } = panel;
  const reasons: ScreeningReason[] = [];
  const add = (message: string) => reasons.push({ source: "panel", message });
  for (const { id, panel: answers } of criteria) {
    if (answers === undefined) continue;
    const missing = answers.answers.filter((a) => !a.evaluated).map((a) => a.judge);
    const total = answers.answers.length;
    if (missing.length > 0 && missing.length < total) {
      add(
        `criterion ${id}: the panel has a gap (${missing.join(", ")} gave no answer); ${total - missing.length} of ${total} judges decided it`,
      );
    }
    if (minAgreement !== undefined && answers.agreement !== null) {
      if (answers.agreement < minAgreement) {
        const values = answers.answers
          .filter((a) => a.evaluated)
          .map((a) => `${a.judge} ${String(a.native)}`);
        add(
          `criterion ${id}: the judges disagree (agreement ${agreementText(answers.agreement)} < ${minAgreement}: ${values.join(", ")})`,
        );
      }
    }
  }
  if (minAgreement !== undefined && panel.agreement !== null && panel.agreement < minAgreement) {
    add(
      `the judges disagree across the criteria (Krippendorff's alpha ${agreementText(panel.agreement)} < ${minAgreement})`,
    );
  }
  return reasons;
}

/** The reasons found before and beside the judging, then the panel's, evidence's and reasoning's. */
export function screenResult(input: {
  early: readonly ScreeningReason[];
  criteria: readonly CriterionResult[];
  panel?: PanelSummary;
}): {
  screening: { humanReviewRequired: boolean; reasons: ScreeningReason[] };
  warnings: string[];
} {
  const consistency = consistencyFindings(input.criteria);
  const reasons = [
    ...input.early,
    ...panelReasons(input.criteria, input.panel),
    ...evidenceReasons(input.criteria),
    ...consistency.reasons,
  ];
  const early = input.early.map((r) => `${r.message} — a human must review this result`);
  return {
    screening: { humanReviewRequired: reasons.length > 0, reasons },
    warnings: [...early, ...consistency.warnings],
  };
}
