/**
 * JUnit XML for CI: a criterion not met is a <failure>, one not evaluated an <error>, never a pass.
 */

import type { CriterionResult, EvaluationResult, Trace } from "../../scoring/result.js";
import { hasOverallScore, shownScore, shownThreshold } from "../../scoring/shownScore.js";
import { oneLine, truncate } from "../../shortText.js";
import { type GateOutcome, nativeText, scoreGate } from "./summary.js";
import { renderXmlDocument, type XmlElement } from "./xml.js";

/** A failure's or error's message attribute, and its body text: at most this many characters. */
const MESSAGE_LIMIT = 500;
const BODY_LIMIT = 4000;

/** One testcase: a name, its outcome and, for a failure or an error, what to show. */
export interface JunitCase {
  name: string;
  classname: string;
  /** Seconds. */
  time: number;
  /** skipped: not needed (an alternative path the answer did not take; blueprints only). */
  outcome: "passed" | "failure" | "error" | "skipped";
  message?: string;
  body?: string;
}

export interface JunitSuite {
  name: string;
  properties: ReadonlyArray<readonly [string, string]>;
  cases: JunitCase[];
  /** When the suite ran (ISO 8601); the document's time when not given. */
  timestamp?: string;
}

/** One content file's evaluation, named as the user gave the file. */
export interface EvaluatedFile {
  file: string;
  result: EvaluationResult;
  contentType?: string;
}

export type CaseBase = Pick<JunitCase, "name" | "classname" | "time">;

export function problemCase(
  base: CaseBase,
  outcome: "failure" | "error" | "skipped",
  message: string,
  body?: string,
): JunitCase {
  const bounded = body === undefined ? {} : { body: truncate(body, BODY_LIMIT) };
  return { ...base, outcome, message: truncate(oneLine(message), MESSAGE_LIMIT), ...bounded };
}

function seconds(milliseconds: number): number {
  return Math.round(milliseconds) / 1000;
}

/** Each trace's latency shared among the criteria it judged; calls for none go to "overall". */
function latencyShares(traces: readonly Trace[]): {
  byCriterion: Map<string, number>;
  rest: number;
} {
  const byCriterion = new Map<string, number>();
  let rest = 0;
  for (const trace of traces) {
    if (trace.criterionIds.length === 0) {
      rest += trace.latencyMs;
      continue;
    }
    const share = trace.latencyMs / trace.criterionIds.length;
    for (const id of trace.criterionIds) byCriterion.set(id, (byCriterion.get(id) ?? 0) + share);
  }
  return { byCriterion, rest };
}

/** An error when not judged (`why`), a failure when `scored` fell short, else passed. */
export function judgedCase(
  base: CaseBase,
  judged: { notJudged: string; why: string } | { scored: string; reasoning: string } | undefined,
): JunitCase {
  if (judged === undefined) return { ...base, outcome: "passed" };
  if ("why" in judged) {
    const { notJudged, why } = judged;
    return problemCase(base, "error", `${notJudged}: ${why}`, why);
  }
  const { scored, reasoning } = judged;
  return problemCase(base, "failure", `${scored}: ${reasoning}`, `${scored}\n\n${reasoning}`);
}

function criterionCase(criterion: CriterionResult, classname: string, time: number): JunitCase {
  const base = { name: `${criterion.title} (${criterion.id})`, classname, time };
  if (!criterion.evaluated || criterion.score === null) {
    const why = criterion.judgeError ?? "not evaluated";
    return judgedCase(base, { notJudged: "not evaluated", why });
  }
  if (criterion.met !== false) return judgedCase(base, undefined);
  const scored = `score ${shownScore(criterion.score, "decimal", criterion.threshold)} (${nativeText(criterion.native)}) under the threshold ${shownThreshold(criterion.threshold)}`;
  return judgedCase(base, { scored, reasoning: criterion.reasoning });
}

function overallCase(
  result: EvaluationResult,
  gate: GateOutcome,
  classname: string,
  time: number,
): JunitCase {
  const base = { name: "overall", classname, time };
  const verdict = `verdict ${result.verdict}${result.status === undefined ? "" : `, status ${result.status}`}`;
  const facts = `overall ${shownScore(result.overallScore)}, ${verdict}`;
  if (!hasOverallScore(result)) {
    const message = `no overall score: no weighted criterion could be evaluated (${verdict})`;
    return problemCase(base, "error", message, message);
  }
  if (gate.passed) return { ...base, outcome: "passed" };
  const why = `${facts}: ${gate.reasons.join("; ")}`;
  return problemCase(base, "failure", why, [why, result.feedback].join("\n\n"));
}

/** The testsuite of one evaluated file; `failUnder` decides the "overall" testcase as the exit code does. */
function evaluationSuite(evaluated: EvaluatedFile, failUnder?: number): JunitSuite {
  const { result } = evaluated;
  const classname =
    evaluated.contentType === undefined
      ? result.catalog.id
      : `${result.catalog.id}.${evaluated.contentType}`;
  const shares = latencyShares(result.traces);
  const gate = scoreGate(result, failUnder);
  const cases = result.criteria.map((criterion) =>
    criterionCase(criterion, classname, seconds(shares.byCriterion.get(criterion.id) ?? 0)),
  );
  cases.push(overallCase(result, gate, classname, seconds(shares.rest)));
  const properties: Array<readonly [string, string]> = [
    ["verdict", result.verdict],
    ["passed", String(result.passed)],
    ["gate", gate.passed ? "passed" : "failed"],
    ["overallScore", hasOverallScore(result) ? String(result.overallScore) : "none"],
    ["catalog", `${result.catalog.id}@${result.catalog.version}`],
  ];
  const { registryVersion } = result.catalog;
  if (registryVersion !== undefined) properties.push(["registryVersion", registryVersion]);
  if (failUnder !== undefined) properties.push(["failUnder", String(failUnder)]);
  if (result.status !== undefined) properties.push(["status", result.status]);
  if (result.model !== undefined) properties.push(["model", result.model]);
  return { name: evaluated.file, properties, cases, timestamp: result.timestamp };
}

/** The counts of `cases`; Jenkins' JUnit schema has `skipped` on a testsuite only, not on the root. */
function countAttributes(cases: readonly JunitCase[], suite: boolean) {
  const count = (outcome: JunitCase["outcome"]) =>
    cases.filter((c) => c.outcome === outcome).length;
  const time = cases.reduce((sum, each) => sum + each.time, 0);
  return [
    ["tests", cases.length],
    ["failures", count("failure")],
    ["errors", count("error")],
    ...(suite ? [["skipped", count("skipped")] as const] : []),
    ["time", Math.round(time * 1000) / 1000],
  ] as const;
}

/** A testcase, with its <failure>, <error> or <skipped> (which has no type) unless it passed. */
function caseElement(each: JunitCase): XmlElement {
  const attributes = [
    ["name", each.name],
    ["classname", each.classname],
    ["time", each.time],
  ] as const;
  if (each.outcome === "passed") return { name: "testcase", attributes };
  const type = each.outcome === "failure" ? "not met" : "not evaluated";
  const detail: XmlElement = {
    name: each.outcome,
    attributes: [
      ["message", each.message ?? ""],
      ...(each.outcome === "skipped" ? [] : [["type", type] as const]),
    ],
    children: each.body === undefined || each.body === "" ? [] : [each.body],
  };
  return { name: "testcase", attributes, children: [detail] };
}

/** The JUnit XML document of `suites`, the root's counts the sums of the suites'. */
export function renderJunitSuites(suites: readonly JunitSuite[], isoTime: string): string {
  const junitTime = (iso: string) => iso.replace(/\.\d+Z$/, "").replace(/Z$/, "");
  const elements = suites.map((suite, index): XmlElement => {
    const properties: XmlElement = {
      name: "properties",
      children: suite.properties.map(([name, value]) => ({
        name: "property",
        attributes: [
          ["name", name],
          ["value", value],
        ],
      })),
    };
    return {
      name: "testsuite",
      attributes: [
        ["name", suite.name],
        ["id", index],
        ...countAttributes(suite.cases, true),
        ["timestamp", junitTime(suite.timestamp ?? isoTime)],
      ],
      children: [properties, ...suite.cases.map(caseElement)],
    };
  });
  return renderXmlDocument({
    name: "testsuites",
    attributes: [
      ["name", "evalgate"],
      ...countAttributes(
        suites.flatMap((suite) => suite.cases),
        false,
      ),
    ],
    children: elements,
  });
}

export function renderJunitReport(files: readonly EvaluatedFile[], failUnder?: number): string {
  const timestamp = files[0]?.result.timestamp ?? new Date(0).toISOString();
  return renderJunitSuites(
    files.map((each) => evaluationSuite(each, failUnder)),
    timestamp,
  );
}
