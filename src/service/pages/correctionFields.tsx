/**
 * Score corrections: per criterion, a "score is wrong" control revealing the right value on the
 * criterion's own scale and a note (plain form fields); read back from the form; and as recorded.
 */

import type { ReviewDetail } from "../../desk/answers.js";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import type { CorrectionInput, RecordedCorrection } from "../../scoring/corrections.js";
import type { CriterionResult } from "../../scoring/result.js";
import { formatScore } from "./scoreChart.js";

const FIELD = /^correction-(\d{1,4})-(criterion|kind|value|note)$/;

function judged(criterion: CriterionResult): string {
  if (criterion.native !== null) return String(criterion.native);
  return criterion.score === null ? "not evaluated" : formatScore(criterion.score);
}

function choicesOf(criterion: CriterionResult): Array<{ value: string; label: string }> | null {
  if (criterion.method === "check") {
    return [
      { value: "pass", label: "pass" },
      { value: "fail", label: "fail" },
    ];
  }
  if (criterion.levels === undefined || criterion.levels.length === 0) return null;
  return criterion.levels.map((l) => ({ value: l.id, label: l.label }));
}

function RightValue(props: {
  criterion: CriterionResult;
  id: string;
  name: string;
  value: string;
}) {
  const choices = choicesOf(props.criterion);
  if (choices !== null) {
    return (
      <select id={props.id} name={props.name}>
        <option value="">— the judge was right —</option>
        {choices.map((c) => (
          <option value={c.value} selected={c.value === props.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  }
  const scale = props.criterion.scale ?? { min: 0, max: 1, integer: false };
  return (
    <input
      type="number"
      id={props.id}
      name={props.name}
      min={String(scale.min)}
      max={String(scale.max)}
      step={scale.integer ? "1" : "any"}
      inputmode="decimal"
      value={props.value === "" ? undefined : props.value}
    />
  );
}

function scaleHint(criterion: CriterionResult): string {
  if (criterion.method === "check") return "pass or fail";
  if ((criterion.levels?.length ?? 0) > 0) return "a level";
  const scale = criterion.scale ?? { min: 0, max: 1 };
  return `${scale.min}–${scale.max}`;
}

function CorrectionRow(props: {
  criterion: CriterionResult;
  index: number;
  values: Readonly<Record<string, string>>;
}) {
  const { criterion, index } = props;
  const name = (part: string) => `correction-${index}-${part}`;
  const kind = choicesOf(criterion) === null ? "score" : "level";
  const value = props.values[name("value")] ?? "";
  const note = props.values[name("note")] ?? "";
  return (
    <details class="correction" open={value !== "" || note !== ""}>
      <summary>
        {criterion.title}: judge said {judged(criterion)} — score is wrong
      </summary>
      <input type="hidden" name={name("criterion")} value={criterion.id} />
      <input type="hidden" name={name("kind")} value={kind} />
      <label for={name("value")}>The right score ({scaleHint(criterion)})</label>
      <RightValue criterion={criterion} id={name("value")} name={name("value")} value={value} />
      <label for={name("note")}>Why (optional)</label>
      <input
        type="text"
        id={name("note")}
        name={name("note")}
        maxlength={REVIEW_LIMITS.noteChars}
        value={note === "" ? undefined : note}
      />
    </details>
  );
}

export function CorrectionFields(props: {
  review: ReviewDetail;
  values?: Readonly<Record<string, string>>;
}) {
  const criteria = props.review.evaluation?.criteria ?? [];
  if (criteria.length === 0) return null;
  return (
    <fieldset class="corrections" id="corrections">
      <legend>Scores the judge got wrong (optional, sent with approve, revise or edit)</legend>
      {criteria.map((criterion, index) => (
        <CorrectionRow criterion={criterion} index={index} values={props.values ?? {}} />
      ))}
    </fieldset>
  );
}

/** The form's other fields, and one correction per criterion whose right value was filled in. */
export function correctionsOfForm(form: Record<string, string>): {
  fields: Record<string, string>;
  corrections: CorrectionInput[];
} {
  const fields: Record<string, string> = {};
  const rows = new Map<string, Record<string, string>>();
  for (const [key, value] of Object.entries(form)) {
    const match = FIELD.exec(key);
    if (match === null) {
      fields[key] = value;
      continue;
    }
    const [, index = "", part = ""] = match;
    rows.set(index, { ...rows.get(index), [part]: value });
  }
  const corrections: CorrectionInput[] = [];
  for (const row of rows.values()) {
    const value = row.value?.trim() ?? "";
    if (value === "" || row.criterion === undefined) continue;
    const note = row.note?.trim() ?? "";
    corrections.push({
      criterionId: row.criterion,
      ...(row.kind === "level" ? { level: value } : { score: Number(value) }),
      ...(note === "" ? {} : { note }),
    });
  }
  return { fields, corrections };
}

function nativeOrPercent(native: number | string | null | undefined, score: number | null) {
  return native === undefined || native === null ? formatScore(score) : String(native);
}

export function RecordedCorrections(props: { corrections: RecordedCorrection[] | undefined }) {
  const corrections = props.corrections ?? [];
  if (corrections.length === 0) return null;
  return (
    <ul class="corrections">
      {corrections.map((c) => (
        <li>
          <strong>{c.criterionTitle}</strong>: judge {nativeOrPercent(c.judgeNative, c.judgeScore)}{" "}
          → reviewer {nativeOrPercent(c.reviewerNative, c.reviewerScore)}
          {c.note !== undefined ? ` — “${c.note}”` : ""}
        </li>
      ))}
    </ul>
  );
}
