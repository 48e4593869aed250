/**
 * Decode prompts are Jinja-compatible templates: loops, conditions and filters work as written,
 * while a template (untrusted, like the rubric it comes in) cannot reach files, code or unbounded
 * time, and every failure is a DecodeTemplateError naming where it is.
 */
import { describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import {
  checkDecodeTemplate,
  MAX_DECODE_PROMPT_CHARS,
  MAX_RANGE_ITEMS,
  renderDecodeTemplate,
} from "../../src/judge/decodeTemplate.js";
import { DecodeTemplateError, isDecodeTemplateError } from "../../src/judge/errors.js";

/** The rubric document's decode_prompt example, as written there. */
const DOCUMENT_DECODE_PROMPT = `Evaluate the following questions for pedagogical quality:

{% for q in questions %}
- {{ q }}
{% endfor %}

Consider: Are the questions age-appropriate? Do they test understanding vs. memorization?
`;

function failure(template: string, scope: Record<string, unknown> = {}): DecodeTemplateError {
  try {
    renderDecodeTemplate(template, scope, { criterionId: "pedagogy", source: "decode_prompt" });
  } catch (error) {
    if (isDecodeTemplateError(error)) return error;
    throw error;
  }
  throw new Error("expected the template to fail");
}

describe("renderDecodeTemplate", () => {
  it("renders the rubric document's for-loop example as written", () => {
    const text = renderDecodeTemplate(DOCUMENT_DECODE_PROMPT, {
      questions: ["Why does ice float?", "What is 2 + 2?"],
    });
    expect(text).toBe(
      [
        "Evaluate the following questions for pedagogical quality:",
        "",
        "- Why does ice float?",
        "",
        "- What is 2 + 2?",
        "",
        "Consider: Are the questions age-appropriate? Do they test understanding vs. memorization?",
      ].join("\n"),
    );
  });

  it("supports conditions, filters and loop variables, with autoescape off", () => {
    const text = renderDecodeTemplate(
      "{% if items | length > 1 %}{{ items | length }} items:{% endif %}{% for i in items %} {{ loop.index }}.{{ i | upper }}{% endfor %} <b>&",
      { items: ["a<b", "c"] },
    );
    expect(text).toBe("2 items: 1.A<B 2.C <b>&");
  });

  it("refuses include, import, from and extends with the line they are on", () => {
    for (const tag of [
      "include 'x.txt'",
      "import 'macros' as m",
      "from 'x' import y",
      "extends 'base'",
    ]) {
      const error = failure(`Intro\n  {% ${tag} %}`);
      expect(error.code).toBe("PROMPT_TEMPLATE_INVALID");
      expect(error.location.line).toBe(2);
      expect(error.message).toContain("criterion 'pedagogy' › decode_prompt › line 2");
      expect(error.message).toContain("not allowed");
    }
  });

  it("refuses to reach constructors and prototypes (no code from a template)", () => {
    const attempts = [
      "{{ range.constructor('return process')() }}",
      "{{ ''.constructor.constructor('return 1')() }}",
      "{% set k = 'constr' + 'uctor' %}{{ questions[k] }}",
      "{{ questions.__proto__ }}",
      "{{ cycler.call }}",
    ];
    for (const attempt of attempts) {
      const error = failure(attempt, { questions: ["q"] });
      expect(error.message).toMatch(/cannot be (read|called) in a prompt template/);
    }
  });

  it("reports a syntax error with its line and column", () => {
    const error = failure("Line one\n{% for q in %}\n{% endfor %}");
    expect(error.location).toMatchObject({ criterionId: "pedagogy", line: 2 });
    expect(error.location.column).toBeGreaterThan(0);
    expect(checkDecodeTemplate.bind(null, "{% if %}")).toThrow(DecodeTemplateError);
  });

  it("reports a render error with its line", () => {
    const error = failure("one\ntwo\n{{ missing_function() }}");
    expect(error.location.line).toBe(3);
    expect(error.message).toContain("missing_function");
  });

  it("bounds range(), the render time and the output size", () => {
    expect(failure(`{% for i in range(${MAX_RANGE_ITEMS + 1}) %}x{% endfor %}`).message).toContain(
      "range()",
    );
    const nested = failure(
      `{% for i in range(${MAX_RANGE_ITEMS}) %}{% for j in range(${MAX_RANGE_ITEMS}) %}{% for k in range(${MAX_RANGE_ITEMS}) %}{% endfor %}{% endfor %}{% endfor %}`,
    );
    expect(nested.message).toMatch(/took longer|characters/);
    const big = failure("{% for i in range(10000) %}{{ chunk }}{% endfor %}", {
      chunk: "x".repeat(Math.ceil(MAX_DECODE_PROMPT_CHARS / 5000)),
    });
    expect(big.message).toContain(`at most ${MAX_DECODE_PROMPT_CHARS}`);
  });

  it("is an EvalgateError", () => {
    expect(isEvalgateError(failure("{{ x("), "PROMPT_TEMPLATE_INVALID")).toBe(true);
  });
});
