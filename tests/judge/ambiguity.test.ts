/**
 * Answers that say two things are judge errors in every reading mode, never a pick: a key given
 * twice with different values, the same field spelt twice, two decisive fields that disagree, two
 * XML values, two batch tables or rows, two rubric answers for one item, two guard verdicts.
 * Answers that repeat themselves alike are used once.
 */
import { describe, expect, it } from "vitest";
import { type Criterion, CriterionSchema } from "../../src/criteria/model.js";
import { parseGuardResponse } from "../../src/judge/injectionGuard.js";
import {
  type LenientObject,
  scanJsonObjects,
  valuesGiven,
} from "../../src/judge/jsonObjectScan.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";
import { parseBatchResponse } from "../../src/judge/parseBatch.js";
import {
  clarityLevels,
  knockoutCheck,
  scoreFivePoint,
  scoreUnit,
  virtuePoint,
} from "./criteria.js";

const decodeLevels: Criterion = CriterionSchema.parse({
  id: "tone",
  title: "Tone",
  description: "Is the tone suited to a funder?",
  weight: 1,
  method: {
    kind: "levels",
    levels: [
      { id: "off", label: "Off", score: 0 },
      { id: "fitting", label: "Fitting", score: 1 },
    ],
    decodePrompt: "Judge the tone of {{ content }}.",
    decodeOutputSchema: {
      type: "object",
      properties: { level_id: { type: "string" }, register: { type: "string" } },
      required: ["level_id"],
    },
  },
});

/** The one object of a text. */
function onlyObject(text: string): LenientObject {
  const [found, ...more] = scanJsonObjects(text).objects;
  if (found === undefined || more.length > 0) throw new Error(`not one object: ${text}`);
  return found.value;
}

describe("the answer reader keeps every value of a repeated key", () => {
  it("lists the values in the order written; the object keeps the last, as JSON.parse does", () => {
    const value = onlyObject('{"score": 0.1, "reasoning": "r", "score": 0.9}');
    expect(value.score).toBe(0.9);
    expect(valuesGiven(value, "score")).toEqual([0.1, 0.9]);
    expect(valuesGiven(value, "reasoning")).toEqual(["r"]);
    expect(valuesGiven(value, "absent")).toEqual([]);
  });

  it("keeps the values of three repeats and of a nested object's repeats", () => {
    const value = onlyObject('{"a": {"b": 1, "b": 2}, "c": 1, "c": 1, "c": 3}');
    expect(valuesGiven(value, "c")).toEqual([1, 1, 3]);
    const inner = value.a;
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) throw new Error("a");
    expect(valuesGiven(inner, "b")).toEqual([1, 2]);
  });
});

describe("per-criterion answers that say two things", () => {
  it.each([
    [
      "a score given twice (0–1)",
      scoreUnit,
      '{"reasoning":"x","score":0.1,"score":0.9}',
      "the answer gives 'score' twice: 0.1 and 0.9",
    ],
    [
      "a score given twice (1–5), the first one valid",
      scoreFivePoint,
      '{"score": 2, "reasoning": "Incremental.", "score": 5}',
      "the answer gives 'score' twice: 2 and 5",
    ],
    [
      "a score given three times",
      scoreFivePoint,
      '{"reasoning": "Mixed.", "score": 3, "score": 3, "score": 4}',
      "the answer gives 'score' 3 times: 3, 3 and 4",
    ],
    [
      "the same field spelt two ways",
      scoreFivePoint,
      '{"reasoning": "Mixed.", "Score": 1, "score": 4}',
      "the answer gives 'Score' twice: 1 and 4",
    ],
    [
      "two reasonings that differ",
      scoreFivePoint,
      '{"reasoning": "Nothing new.", "score": 4, "reasoning": "A clear advance."}',
      "the answer gives 'reasoning' twice",
    ],
    [
      "a check result given twice",
      knockoutCheck,
      "{'result': 'pass', 'reasoning': 'Registered in Hamburg.', 'result': 'fail'}",
      'the answer gives \'result\' twice: "pass" and "fail"',
    ],
    [
      "two decisive fields that disagree (check)",
      knockoutCheck,
      '{"reasoning": "Registered in Hamburg.", "result": "pass", "passed": false}',
      "decisions that disagree: 'result' pass and 'passed' fail",
    ],
    [
      "a level given twice",
      clarityLevels,
      '{"level_id": "excellent", "reasoning": "Clear.", "level_id": "fail"}',
      "the answer gives 'level_id' twice",
    ],
    [
      "level_id and level that disagree",
      clarityLevels,
      '{"reasoning": "Clear.", "level_id": "pass", "level": "Needs Work"}',
      "decisions that disagree: 'level_id' pass and 'level' needs_work",
    ],
    [
      "a decode answer whose schema field is given twice",
      decodeLevels,
      '{"reasoning": "Polite.", "level_id": "fitting", "register": "formal", "register": "casual"}',
      "the answer gives 'register' twice",
    ],
    [
      "hits given twice with different lists",
      scoreFivePoint,
      '{"reasoning": "ok", "score": 4, "hits": ["a"], "misses": [], "hits": ["b"]}',
      "the answer gives 'hits' twice",
    ],
    [
      "two coverage values in the XML answer of a point",
      virtuePoint,
      "<reflection>Wisdom is named.</reflection><coverage_extent>0.2</coverage_extent>\n<coverage_extent>0.9</coverage_extent>",
      'the answer gives <coverage_extent> 2 times: "0.2" and "0.9"',
    ],
    [
      "a wrapper key given twice, holding answers that disagree",
      scoreFivePoint,
      '{"evaluation": {"reasoning": "Weak.", "score": 1}, "evaluation": {"reasoning": "Strong.", "score": 5}}',
      "answers that disagree",
    ],
  ])("%s is a judge error naming it", (_name, criterion, text, message) => {
    const answer = parseJudgeResponse(text, criterion);
    expect(answer.usable).toBe(false);
    expect(answer.native).toBeNull();
    expect(answer.score01).toBe(0);
    expect(answer.judgeError).toContain(message);
  });

  it("an ambiguous object is not rescued by a clean one after it", () => {
    const text = [
      '{"reasoning": "First try.", "score": 1, "score": 5}',
      "Corrected:",
      '{"reasoning": "Second try.", "score": 5}',
    ].join("\n");
    const answer = parseJudgeResponse(text, scoreFivePoint);
    expect(answer.usable).toBe(false);
    expect(answer.judgeError).toContain("the answer gives 'score' twice: 1 and 5");
    expect(answer.judgeError).toContain("the judge must give one answer");
  });

  it("0–1 scores are held to the same rule", () => {
    const answer = parseJudgeResponse(
      '{"score": 0.95, "reasoning": "Good.", "score": 0.05}',
      scoreUnit,
    );
    expect(answer.usable).toBe(false);
    expect(answer.judgeError).toContain("'score' twice: 0.95 and 0.05");
  });

  it.each([
    ["a key repeated with the same value", '{"reasoning": "Clear.", "score": 4, "score": 4}'],
    [
      "an equal object repeated with its keys in another order",
      '{"notes": {"a": 1, "b": 2}, "reasoning": "Clear.", "score": 4, "notes": {"b": 2, "a": 1}}',
    ],
    ["two decisive fields that agree", '{"reasoning": "Clear.", "score": 4, "coverage": "4/5"}'],
  ])("%s is used", (_name, text) => {
    const answer = parseJudgeResponse(text, scoreFivePoint);
    expect(answer.usable).toBe(true);
    expect(answer.native).toBe(4);
  });

  it("a field that is not a decision beside the decisive one is no second decision", () => {
    const text = '{"reasoning": "Based in Hamburg.", "result": "pass", "verdict": "clearly met"}';
    expect(parseJudgeResponse(text, knockoutCheck)).toMatchObject({ usable: true, native: "pass" });
  });

  it("an unrelated object with a repeated key does not spoil the answer beside it", () => {
    const text = 'Context: {"region": "north", "region": "south"}\n{"reasoning": "ok", "score": 3}';
    expect(parseJudgeResponse(text, scoreFivePoint)).toMatchObject({ usable: true, native: 3 });
  });

  it("two XML coverage values that agree (0.8 and 0.80) are one answer", () => {
    const text =
      "<reflection>Most virtues named.</reflection><coverage_extent>0.8</coverage_extent> (<coverage_extent>0.80</coverage_extent>)";
    expect(parseJudgeResponse(text, virtuePoint)).toMatchObject({ usable: true, native: 0.8 });
  });
});

describe("a score or level beside a pass/fail word that says otherwise", () => {
  it.each([
    [
      "a top score and verdict fail",
      scoreFivePoint,
      '{"score": 5, "verdict": "fail", "reasoning": "Clearly beyond the state of the art."}',
      "'score' 5 meets the threshold 0.7 but 'verdict' says fail",
    ],
    [
      "the lowest score and passed true",
      scoreFivePoint,
      '{"score": 1, "passed": true, "reasoning": "Nothing new."}',
      "'score' 1 is under the threshold 0.7 but 'passed' says pass",
    ],
    [
      "a 0–1 score under the threshold and result pass",
      scoreUnit,
      '{"score": 0.6, "result": "pass", "reasoning": "Tight but possible."}',
      "'score' 0.6 is under the threshold 0.7 but 'result' says pass",
    ],
    [
      "a top score and verdict not met",
      scoreFivePoint,
      '{"score": 5, "verdict": "Not met.", "reasoning": "Clearly beyond the state of the art."}',
      "'score' 5 meets the threshold 0.7 but 'verdict' says fail",
    ],
    [
      "a low score and result met",
      scoreUnit,
      '{"score": 0.2, "result": "met", "reasoning": "Too few staff."}',
      "'score' 0.2 is under the threshold 0.7 but 'result' says pass",
    ],
    [
      "a point covered and verdict fail",
      virtuePoint,
      '{"score": 0.9, "verdict": "fail", "reasoning": "All four virtues are named."}',
      "'score' 0.9 meets the threshold 0.7 but 'verdict' says fail",
    ],
    [
      "the best level and verdict fail",
      clarityLevels,
      '{"level_id": "excellent", "verdict": "fail", "reasoning": "Crystal clear."}',
      "'level_id' excellent meets the threshold 0.7 but 'verdict' says fail",
    ],
  ])("%s is a judge error naming both", (_name, criterion, text, message) => {
    const answer = parseJudgeResponse(text, criterion);
    expect(answer).toMatchObject({ usable: false, native: null, score01: 0 });
    expect(answer.judgeError).toContain(message);
    expect(answer.judgeError).toContain("the judge must give one answer");
  });

  it.each([
    [
      "a wrapped score",
      scoreFivePoint,
      '{"evaluation": {"score": 5, "reasoning": "Clearly new."}, "verdict": "fail"}',
      "'score' 5 meets the threshold 0.7 but 'verdict' says fail",
    ],
    [
      "a wrapped level",
      clarityLevels,
      '{"evaluation": {"level_id": "excellent", "reasoning": "Crystal clear."}, "result": "fail"}',
      "'level_id' excellent meets the threshold 0.7 but 'result' says fail",
    ],
  ])("a word beside the object that wraps %s counts too", (_name, criterion, text, message) => {
    const answer = parseJudgeResponse(text, criterion);
    expect(answer.usable).toBe(false);
    expect(answer.judgeError).toContain(message);
  });

  it("the criterion's own threshold decides whether the word agrees", () => {
    const text = '{"score": 0.6, "verdict": "pass", "reasoning": "Tight but possible."}';
    const lenient = { ...scoreUnit, passingThreshold: 0.5 };
    expect(parseJudgeResponse(text, lenient)).toMatchObject({ usable: true, native: 0.6 });
    expect(parseJudgeResponse(text, scoreUnit).usable).toBe(false);
  });

  it.each([
    ['{"score": 4, "verdict": "pass", "reasoning": "A clear advance."}', 4],
    ['{"score": 2, "passed": false, "reasoning": "Little that is new."}', 2],
    ['{"score": 4, "verdict": "clearly met", "reasoning": "A clear advance."}', 4],
  ])("a word that agrees, or is no pass/fail word, leaves %s its score", (text, native) => {
    expect(parseJudgeResponse(text, scoreFivePoint)).toMatchObject({ usable: true, native });
  });
});

describe("batch and grouped answers that say two things", () => {
  const criteria = [scoreFivePoint, scoreUnit];
  const header = "results[2]{id,score,quotes,reasoning}:";

  it("two tables that disagree leave the criterion unanswered, naming both values", () => {
    const text = [
      header,
      `  c2,1,"","Little that is new."`,
      `  feasibility,0.6,"","Plan fits the staff."`,
      "",
      "On reflection:",
      "",
      header,
      `  c2,5,"","Clearly beyond the state of the art."`,
      `  feasibility,0.6,"","Plan fits the staff."`,
    ].join("\n");
    const batch = parseBatchResponse(text, criteria);
    expect(batch.missing).toEqual(["c2"]);
    expect(batch.answers.get("feasibility")?.native).toBe(0.6);
    expect(batch.ambiguities).toEqual(["the answer gives c2 twice: 1 and 5"]);
    expect(batch.notes.join("\n")).toContain("the answer gives c2 twice: 1 and 5");
  });

  it("a column beside the score that says otherwise leaves the criterion unanswered", () => {
    const text = [
      "results[2]{id,score,verdict,quotes,reasoning}:",
      `  c2,5,fail,"","Clearly beyond the state of the art."`,
      `  feasibility,0.9,pass,"","Plan fits the staff."`,
    ].join("\n");
    const batch = parseBatchResponse(text, criteria);
    expect(batch.missing).toEqual(["c2"]);
    expect(batch.answers.get("feasibility")?.native).toBe(0.9);
    expect(batch.notes.join("\n")).toContain(
      "row for c2 unusable: the answer's 'score' 5 meets the threshold 0.7 but 'verdict' says fail",
    );
    const check = ["results[1]{id,score,result,quotes,reasoning}:", `  c1,pass,fail,"","Hamburg."`];
    const knockout = parseBatchResponse(check.join("\n"), [knockoutCheck]);
    expect(knockout.missing).toEqual(["c1"]);
    expect(knockout.notes.join("\n")).toContain(
      `the answer gives 'result' twice: "fail" and "pass"`,
    );
  });

  it("two tables that agree are used once", () => {
    const table = [header, `  c2,4,"","A clear advance."`, `  feasibility,0.9,"","Fits."`].join(
      "\n",
    );
    const batch = parseBatchResponse(`${table}\n\n\`\`\`\n${table}\n\`\`\``, criteria);
    expect(batch.missing).toEqual([]);
    expect(batch.ambiguities).toEqual([]);
    expect(batch.answers.get("c2")?.native).toBe(4);
    expect(batch.notes).toContain("c2 was answered 2 times, alike; used once");
  });

  it("two rows for one id that disagree, in one table", () => {
    const text = [
      "results[3]{id,score,quotes,reasoning}:",
      `  feasibility,0.2,"","Too few staff."`,
      `  c2,3,"","Some new elements."`,
      `  feasibility,0.95,"","Staffing is ample."`,
    ].join("\n");
    const batch = parseBatchResponse(text, criteria);
    expect(batch.missing).toEqual(["feasibility"]);
    expect(batch.ambiguities).toEqual(["the answer gives feasibility twice: 0.2 and 0.95"]);
  });

  it("a table header that names a column twice is not read", () => {
    const text = ["results[1]{id,score,score,reasoning}:", `  c2,1,5,"Which one?"`].join("\n");
    const batch = parseBatchResponse(text, criteria);
    expect(batch.missing).toEqual(["c2", "feasibility"]);
    expect(batch.problem).toContain("not valid TOON");
  });

  it("a table that cannot be read beside one that can is noted, and the readable one used", () => {
    const text = [
      "results[5]{id,score,quotes,reasoning}:",
      `  c2,1,"","Short table."`,
      "",
      header,
      `  c2,4,"","A clear advance."`,
      `  feasibility,0.7,"","Fits."`,
    ].join("\n");
    const batch = parseBatchResponse(text, criteria);
    expect(batch.missing).toEqual([]);
    expect(batch.notes.join("\n")).toContain("1 of 2 tables could not be read");
  });

  it("an unusable row does not make a usable one ambiguous", () => {
    const text = [
      "results[3]{id,score,quotes,reasoning}:",
      `  c2,9,"","Off the scale."`,
      `  c2,4,"","A clear advance."`,
      `  feasibility,0.7,"","Fits."`,
    ].join("\n");
    const batch = parseBatchResponse(text, criteria);
    expect(batch.answers.get("c2")?.native).toBe(4);
    expect(batch.ambiguities).toEqual([]);
  });
});

describe("the injection guard's answer that says two things", () => {
  it.each([
    [
      "the verdict given twice",
      '{"reasoning": "Plain budget text.", "instruction_bearing": false, "instruction_bearing": true}',
      "the guard's answer gives 'instruction_bearing' twice: false and true",
    ],
    [
      "two verdict fields that disagree",
      '{"reasoning": "Plain.", "instruction_bearing": "no", "prompt_injection": "yes"}',
      "decisions that disagree",
    ],
  ])("%s is a failed guard (held for review), not a clean verdict", (_name, text, message) => {
    const verdict = parseGuardResponse(text);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.error).toContain(message);
  });

  it("a verdict repeated alike is read", () => {
    const verdict = parseGuardResponse(
      '{"reasoning": "Plain.", "instruction_bearing": false, "instruction_bearing": false}',
    );
    expect(verdict).toMatchObject({ ok: true, instructionBearing: false });
  });
});
