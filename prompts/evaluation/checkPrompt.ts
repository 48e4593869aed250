/** The judge's task for a `check` criterion: pass or fail (a knockout check, a rubric item). */
export const CHECK_TEMPLATE = `Content under evaluation:
{{content}}

{{context}}

Decide whether the content above meets one requirement. This is a pass/fail check.

Requirement: {{criterion_title}}
{{criterion_description}}

{{guidelines}}

{{answer_format}}`;

export interface CheckGuidelineParts {
  /** What a pass looks like (a rubric item's expected_outcome). */
  expectedOutcome?: string;
  /** A knockout gate: failing it rejects the application. */
  knockout: boolean;
}

export function checkGuidelines(parts: CheckGuidelineParts): string {
  const lines: string[] = [];
  const expected = parts.expectedOutcome?.trim();
  if (expected) lines.push(`Expected outcome for a pass: ${expected}`);
  lines.push(
    'Answer "pass" only when the content shows that the requirement is met; answer "fail" when it is not met, is contradicted, or is not shown.',
  );
  if (parts.knockout) {
    lines.push(
      "This is a knockout requirement: failing it rejects the whole application, so decide on clear evidence only.",
    );
  }
  return lines.join("\n");
}
