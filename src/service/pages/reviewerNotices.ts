/**
 * An evaluation's warnings and review reasons in a reviewer's words: one sentence per kind of
 * finding, the possible prompt injection first. The engine's own texts are for administrators.
 */

import type { EvaluationResult } from "../../scoring/result.js";
import { oneLine, truncate } from "../../shortText.js";

/** The kinds of finding a reviewer is told about, in the order the notices are shown. */
const NOTICE_KINDS = [
  "injection",
  "injection_unchecked",
  "no_score",
  "not_evaluated",
  "validator_rejected",
  "default_criteria",
  "reasoning_mismatch",
  "quote_not_found",
  "judges_disagree",
  "panel_gap",
  "no_reasoning",
  "score_rounded",
  "summary_fallback",
  "unrecognised",
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** For administrators only; `other` is a text no rule knows (reviewers are told how many). */
type FindingKind =
  | NoticeKind
  | "judge_process"
  | "answer_read"
  | "cache"
  | "criteria_file"
  | "other";

export interface ReviewerNotice {
  kind: NoticeKind;
  text: string;
  /** Shown loudly (red, first): the content may have steered the judge. */
  alert: boolean;
  /** Passages of the content a finding quotes (possible injections), cut short. */
  passages: string[];
}

interface Finding {
  kind: FindingKind;
  criterionId?: string;
  /** Where an injection was found ("the content", "source document rfp.md"). */
  where?: string;
  passage?: string;
}

const MAX_PASSAGES = 3;
const MAX_PASSAGE_CHARS = 160;
const MAX_REASON_CHARS = 300;

/** Texts about one criterion, after its id (`<id>: …`, `criterion <id>: …`, `criterion <id> was …`). */
const CRITERION_RULES: ReadonlyArray<[RegExp, FindingKind]> = [
  [/^: reasoning and score disagree/, "reasoning_mismatch"],
  [/^: (?:the judge|judge .+)'s reasoning says/s, "reasoning_mismatch"],
  [/^: (?:the judge|judge .+) quoted .*, which the content does not contain$/s, "quote_not_found"],
  [/^ was met on quotes the content does not contain/, "quote_not_found"],
  [/^: the judges disagree/, "judges_disagree"],
  [/^: the panel has a gap/, "panel_gap"],
  [/^: judge .+ gave no answer/s, "panel_gap"],
  [/^: the judge gave no reasoning/, "no_reasoning"],
  [/^: \S+ -?[\d.]+ rounded to the whole number/, "score_rounded"],
];

/** Texts about the whole evaluation. */
const GENERAL_RULES: ReadonlyArray<[RegExp, FindingKind]> = [
  [/^the judges disagree across the criteria/, "judges_disagree"],
  [/^no weighted score: /, "no_score"],
  [/^the custom validator rejected the result/, "validator_rejected"],
  [/^no criteria file .* the built-in default criteria were used$/s, "default_criteria"],
  [/^summary: /, "summary_fallback"],
  [/^(?:judge \S+: )?(?:batch|group \d+\/\d+): /, "judge_process"],
  [/^judge cache: /, "cache"],
  [
    /^(?:weights of the scored criteria|duplicate criterion|two or more guideline bands)/,
    "criteria_file",
  ],
];

/** Texts that name where in the content (or its sources) they were found. */
const PLACE_RULES: ReadonlyArray<[RegExp, FindingKind]> = [
  [
    /^possible prompt injection in (.+?) \([^)]*\): "(.*)"(?: — a human must review this result)?$/s,
    "injection",
  ],
  [/^the injection guard found text aimed at the judge in (.+?): /s, "injection"],
  [/^the injection guard could not check (.+?) \(/s, "injection_unchecked"],
  [/^the injection guard's answer about (.+?) could not be read/s, "injection_unchecked"],
];

/** `ids` longest first. */
function criterionOf(
  text: string,
  ids: readonly string[],
): { id: string; rest: string } | undefined {
  for (const id of ids) {
    for (const prefix of [id, `criterion ${id}`]) {
      const rest = text.slice(prefix.length);
      if (text.startsWith(prefix) && (rest.startsWith(": ") || rest.startsWith(" was "))) {
        return { id, rest };
      }
    }
  }
  return undefined;
}

export function classifyFinding(text: string, criterionIds: readonly string[]): Finding {
  for (const [pattern, kind] of PLACE_RULES) {
    const found = pattern.exec(text);
    if (found === null) continue;
    const passage = found[2];
    return { kind, where: found[1] ?? "", ...(passage === undefined ? {} : { passage }) };
  }
  const ids = [...criterionIds].sort((a, b) => b.length - a.length);
  const about = criterionOf(text, ids);
  if (about !== undefined) {
    const rule = CRITERION_RULES.find(([pattern]) => pattern.test(about.rest));
    return { kind: rule?.[1] ?? "answer_read", criterionId: about.id };
  }
  const optional = /^optional '.*' \((.*)\) could not be evaluated/s.exec(text);
  if (optional !== null) return { kind: "not_evaluated", criterionId: optional[1] ?? "" };
  const rule = GENERAL_RULES.find(([pattern]) => pattern.test(text));
  return { kind: rule?.[1] ?? "other" };
}

export function evaluationFindings(evaluation: EvaluationResult): string[] {
  return [...new Set([...(evaluation.humanReviewReasons ?? []), ...evaluation.warnings])];
}

const LIST = new Intl.ListFormat("en-GB", { type: "conjunction" });
const listOf = (titles: readonly string[]) => LIST.format(titles);

function criteriaPhrase(titles: readonly string[]): string {
  return titles.length === 1
    ? `1 criterion (${titles[0]})`
    : `${titles.length} criteria (${listOf(titles)})`;
}

function sentenceOf(kind: NoticeKind, { titles, places, count }: Gathered, reason: string): string {
  const these = listOf(titles);
  switch (kind) {
    case "injection":
      return `The content may contain instructions to the judge (possible prompt injection), in ${listOf(places)}: read it carefully before you decide — the scores may have been steered, and this review cannot pass without your decision.`;
    case "injection_unchecked":
      return `The check for instructions aimed at the judge could not run on ${listOf(places)}: read it yourself before you decide.`;
    case "no_score":
      return "There is no overall score: no criterion that counts towards it could be scored, so the judge alone cannot pass it.";
    case "not_evaluated":
      return `The judge could not answer for ${criteriaPhrase(titles)}: ${titles.length === 1 ? "it was" : "they were"} not evaluated.`;
    case "validator_rejected":
      return `A check set up for this pipeline rejected the result, so it cannot pass${reason === "" ? "." : `: ${reason}`}`;
    case "default_criteria":
      return "No criteria were set up for this stage, so general default criteria were used: the scores may not fit this call.";
    case "reasoning_mismatch":
      return `The judge's reasoning and its score disagree for ${these}: check ${titles.length === 1 ? "that score" : "those scores"} yourself.`;
    case "quote_not_found":
      return `The judge quoted text that is not in the content for ${these}: check ${titles.length === 1 ? "that score" : "those scores"} against the content.`;
    case "judges_disagree":
      return titles.length === 0
        ? "The judges of the panel disagree with each other: read their answers below."
        : `The judges of the panel disagree on ${these}: read their answers below.`;
    case "panel_gap":
      return `Not every judge of the panel answered for ${these}: the others decided it.`;
    case "no_reasoning":
      return `The judge gave no reasoning for ${these}.`;
    case "score_rounded":
      return `The judge's score for ${these} fell between the steps of the scale and was rounded to the nearest step.`;
    case "summary_fallback":
      return "The written summary could not be made, so a plain summary is shown.";
    case "unrecognised":
      return count === 1
        ? "The evaluation noted 1 other thing, which only an administrator can see."
        : `The evaluation noted ${count} other things, which only an administrator can see.`;
  }
}

interface Gathered {
  titles: string[];
  places: string[];
  passages: string[];
  count: number;
}

function gather(evaluation: EvaluationResult): Map<NoticeKind, Gathered> {
  const ids = evaluation.criteria.map((c) => c.id);
  const titleOf = new Map(evaluation.criteria.map((c) => [c.id, c.title]));
  const groups = new Map<NoticeKind, Gathered>();
  const add = (kind: NoticeKind, finding: Finding) => {
    const group = groups.get(kind) ?? { titles: [], places: [], passages: [], count: 0 };
    const title = finding.criterionId === undefined ? undefined : titleOf.get(finding.criterionId);
    const passage =
      finding.passage === undefined ? "" : truncate(oneLine(finding.passage), MAX_PASSAGE_CHARS);
    groups.set(kind, {
      titles: [...new Set([...group.titles, title ?? ""])].filter((t) => t !== ""),
      places: [...new Set([...group.places, finding.where ?? ""])].filter((p) => p !== ""),
      passages: [...new Set([...group.passages, passage])].filter((p) => p !== ""),
      count: group.count + 1,
    });
  };
  for (const criterion of evaluation.criteria.filter((c) => !c.evaluated)) {
    add("not_evaluated", { kind: "not_evaluated", criterionId: criterion.id });
  }
  for (const text of evaluationFindings(evaluation)) {
    const finding = classifyFinding(text, ids);
    if (finding.kind === "other") add("unrecognised", finding);
    else if ((NOTICE_KINDS as readonly string[]).includes(finding.kind)) {
      add(finding.kind as NoticeKind, finding);
    }
  }
  return groups;
}

/** Once each, in NOTICE_KINDS order; a text no rule knows is only counted. */
export function reviewerNotices(evaluation: EvaluationResult): ReviewerNotice[] {
  const groups = gather(evaluation);
  const reason = truncate(oneLine(evaluation.validatorRejection ?? ""), MAX_REASON_CHARS);
  return NOTICE_KINDS.flatMap((kind) => {
    const group = groups.get(kind);
    if (group === undefined) return [];
    const places = group.places.length > 0 ? group.places : ["the content"];
    return [
      {
        kind,
        text: sentenceOf(kind, { ...group, places }, reason),
        alert: kind === "injection" || kind === "injection_unchecked",
        passages: group.passages.slice(0, MAX_PASSAGES),
      },
    ];
  });
}

/** Everything the notices are made from, as the engine wrote it, with every judge error. */
export function technicalNotes(evaluation: EvaluationResult): string[] {
  const judgeErrors = evaluation.criteria.flatMap((c) => [
    ...(c.judgeError === undefined ? [] : [`${c.id}: ${c.judgeError}`]),
    ...(c.panel?.answers ?? []).flatMap((a) =>
      a.judgeError === undefined ? [] : [`${c.id}: judge ${a.judge}: ${a.judgeError}`],
    ),
  ]);
  return [...evaluationFindings(evaluation), ...judgeErrors];
}
