/**
 * Decode prompts are Liquid templates that keep Jinja's common forms: loops, conditions with
 * elif, set, loop.index, Jinja's filter names and comments work as written; a Jinja form Liquid
 * cannot do is an error naming the line, never a silent difference; and a template (untrusted,
 * like the rubric it comes in) cannot reach files, code, unbounded steps, memory, output or time.
 * (The escape corpus is tests/judge/templateEscapes.test.ts.)
 */
import { describe, expect, it, vi } from "vitest";
import {
  MAX_RENDERED_CHARS as MAX_DECODE_PROMPT_CHARS,
  MAX_RENDER_STEPS,
  MAX_TEMPLATE_CHARS,
  MAX_TEMPLATE_TEXT_CHARS,
  printAs,
  RENDER_HARD_STOP_MS,
  TEMPLATE_MEMORY_UNITS,
} from "../../src/criteria/promptTemplate.js";
import { isEvalgateError } from "../../src/errors.js";
import { compileDecodeTemplate, renderDecodeTemplate } from "../../src/judge/decodePrompt.js";
import { isDecodeTemplateError, JudgeError } from "../../src/judge/errors.js";

/** The rubric document's decode_prompt example, as written there. */
const DOCUMENT_DECODE_PROMPT = `Evaluate the following questions for pedagogical quality:

{% for q in questions %}
- {{ q }}
{% endfor %}

Consider: Are the questions age-appropriate? Do they test understanding vs. memorization?
`;

const LOCATION = { criterionId: "pedagogy", source: "decode_prompt" };

function render(template: string, scope: Record<string, unknown> = {}): string {
  return renderDecodeTemplate(template, scope, LOCATION);
}

function failure(template: string, scope: Record<string, unknown> = {}): JudgeError {
  try {
    render(template, scope);
  } catch (error) {
    if (isDecodeTemplateError(error)) return error;
    throw error;
  }
  throw new Error("expected the template to fail");
}

describe("renderDecodeTemplate: the forms authors write", () => {
  it("renders the rubric document's for-loop example as written", () => {
    const text = render(DOCUMENT_DECODE_PROMPT, {
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

  it("conditions with elif and else, comparisons, and / or / not", () => {
    const graded = (n: number) =>
      render(
        "{% if n >= 8 %}high{% elif n >= 4 and n < 8 %}middle{% elif not n %}none{% else %}low{% endif %}",
        { n },
      );
    expect([9, 5, 2, 0].map(graded)).toEqual(["high", "middle", "low", "none"]);
    expect(render("{% if a or b %}yes{% endif %}", { a: false, b: "x" })).toBe("yes");
  });

  it("Jinja's truthiness: an empty string and 0 are false", () => {
    expect(render("{% if s %}set{% else %}empty{% endif %}", { s: "" })).toBe("empty");
    expect(render("{% if n %}set{% else %}zero{% endif %}", { n: 0 })).toBe("zero");
  });

  it("loop.index, index0, revindex, first, last and length inside for loops (and forloop)", () => {
    const text = render(
      "{% for w in words %}{{ loop.index }}/{{ loop.length }}:{{ w }}{% if loop.first %}<{% endif %}{% if loop.last %}>{% endif %}({{ loop.index0 }},{{ loop.revindex }},{{ forloop.index }}) {% endfor %}",
      { words: ["a", "b", "c"] },
    );
    expect(text).toBe("1/3:a<(0,3,1) 2/3:b(1,2,2) 3/3:c>(2,1,3)");
  });

  it("loop refers to the innermost loop", () => {
    const text = render(
      "{% for row in rows %}{% for cell in row %}{{ loop.index }}{% endfor %}|{{ loop.index }} {% endfor %}",
      { rows: [["x", "y"], ["z"]] },
    );
    expect(text).toBe("12|1 1|2");
  });

  it("set and assign, nested properties, for-else, whitespace control and Jinja comments", () => {
    const text = render(
      "{# a note for authors #}{% set who = person.name | upper %}{{ who }}\n{%- for x in none_here %}{{ x }}{% else %} (nothing){% endfor -%}\n!",
      { person: { name: "ada" }, none_here: [] },
    );
    expect(text).toBe("ADA (nothing)!");
  });

  it("a Jinja comment keeps its lines; an unclosed {# is text, however many there are", () => {
    expect(render("a{# one\ntwo #}b\n{{ n }}", { n: 1 })).toBe("a\nb\n1");
    const error = failure("{# note\nspanning #}\n{% if %}");
    expect(error.location.line).toBe(3);
    const unclosed = "{#".repeat(40_000);
    expect(render(unclosed)).toBe(unclosed);
  });

  it("Jinja's filter names and Liquid's, with Liquid's argument syntax", () => {
    const scope = { words: ["b", "a", "b"], title: "  the art of WAR ", n: "7.9", x: "" };
    const cases: Array<[string, string]> = [
      ["{{ title | trim | title }}", "The Art Of War"],
      ["{{ title | lower | trim }}", "the art of war"],
      ["{{ words | length }} {{ words | count }} {{ title | size }}", "3 3 17"],
      ["{{ words | unique | join: ', ' }}", "b, a"],
      ["{{ words | first }}{{ words | last }}", "bb"],
      ["{{ n | int }} {{ n | float | plus: 1 }} {{ 'x' | int: 5 }}", "7 8.9 5"],
      ["{{ 3.14159 | round: 2 }}", "3.14"],
      ["{{ x | default: 'n/a' }} {{ x | d: 'none' }}", "n/a none"],
      ["{{ words | sort | join: '' }}", "abb"],
      ["{{ '<b>bold</b>' | striptags }} {{ '<b>' | e }} {{ '<b>' | safe }}", "bold &lt;b&gt; <b>"],
      ["{{ 'one two  three' | wordcount }}", "3"],
      ["{{ 'abc' | list | join: '-' }} {{ 42 | string | append: '!' }}", "a-b-c 42!"],
      ["{{ nums | min }} {{ nums | max }}", "1 9"],
      ["{% if (words | length) > 2 %}many{% endif %}", "many"],
    ];
    for (const [template, expected] of cases) {
      expect(render(template, { ...scope, nums: [4, 1, 9] }), template).toBe(expected);
    }
  });

  it("writes text as it is (a prompt is not HTML) and an undefined name as nothing", () => {
    expect(render("{{ a }} <b>&{{ missing }}{{ missing.deeper }}", { a: "x<y" })).toBe("x<y <b>&");
  });

  it("prints a list or an object registered with printAs as its registered text", () => {
    const questions = printAs(["q1", "q2"], "[QUESTIONS AS A BLOCK]");
    expect(render("{{ questions }} / {{ questions | join: ',' }}", { questions })).toBe(
      "[QUESTIONS AS A BLOCK] / q1,q2",
    );
  });

  it("treats template syntax inside the values as text", () => {
    expect(render("{{ q }}", { q: "{{ 7 | times: 7 }}{% include 'x' %}" })).toBe(
      "{{ 7 | times: 7 }}{% include 'x' %}",
    );
  });
});

describe("renderDecodeTemplate: what it refuses, with the line", () => {
  it("refuses tags that would read files or other templates", () => {
    for (const tag of [
      "include 'x.txt'",
      "render 'x'",
      "layout 'base'",
      "import 'macros' as m",
      "from 'x' import y",
      "extends 'base'",
    ]) {
      const error = failure(`Intro\n  {% ${tag} %}`);
      expect(error.code).toBe("PROMPT_TEMPLATE_INVALID");
      expect(error.location).toMatchObject({ line: 2, column: 3 });
      expect(error.message).toContain("criterion 'pedagogy' › decode_prompt › line 2, column 3");
      expect(error.message).toContain("not allowed in a prompt template");
    }
  });

  it("refuses dates of the clock ('now', 'today'), which would change the prompt with the time", () => {
    for (const template of [
      "{{ 'now' | date: '%Y' }}",
      '{{ "today" | date_to_string }}',
      "{% set d = 'now' %}{{ d | date }}",
    ]) {
      const error = failure(`first line\n${template}`);
      expect(error.code, template).toBe("PROMPT_TEMPLATE_INVALID");
      expect(error.message, template).toMatch(/the clock/);
      expect(error.location.line, template).toBe(2);
    }
    // A date written in the content is rendered as it is, the same every time.
    expect(render("{{ d | date: '%Y-%m-%d' }}", { d: "2026-03-01T12:00:00Z" })).toBe("2026-03-01");
  });

  it("a Jinja form Liquid cannot do is an error naming it, never a silent difference", () => {
    const cases: Array<[string, RegExp]> = [
      ["{{ range(3) }}", /unexpected "\(3\)"/],
      ["{% for i in range(3) %}{% endfor %}", /unexpected "\(3\)"/],
      ["{{ a if b else c }}", /unexpected "if"/],
      ["{% set x = a if b else c %}", /unexpected "if"/],
      ["{% if x is defined %}{% endif %}", /unexpected "is"/],
      ["{% for q in qs if q %}{% endfor %}", /unexpected "if" in a for loop/],
      ["{{ x | default('n/a') }}", /filter's arguments follow a colon/],
      ["{% if items | length > 1 %}{% endif %}", /in parentheses/],
      ["{% macro m() %}{% endmacro %}", /unknown tag 'macro'/],
      ["{% filter upper %}x{% endfilter %}", /unknown tag 'filter'/],
      ["{{ x | capitalize_words }}", /unknown filter 'capitalize_words'/],
      ["{{ 'a' ~ 'b' }}", /expected "\|" before filter/],
    ];
    for (const [template, message] of cases) {
      const error = failure(`first line\n${template}`);
      expect(error.message, template).toMatch(message);
      expect(error.location.line, template).toBe(2);
    }
  });

  it("reports a syntax error with its line and column, also without rendering", () => {
    const error = failure("Line one\n{% for q in %}\n{% endfor %}");
    expect(error.location).toMatchObject({ criterionId: "pedagogy", line: 2, column: 1 });
    expect(compileDecodeTemplate.bind(null, "ok\n{% if x %}")).toThrow(JudgeError);
    expect(compileDecodeTemplate.bind(null, "{{ x ")).toThrow(/line 1/);
  });

  it("reports a render error with its line", () => {
    const error = failure("one\ntwo\n{% for q in qs %}{{ q | append }}{% endfor %}", {
      qs: ["a"],
    });
    expect(error.location.line).toBe(3);
  });

  it("is an EvalgateError", () => {
    expect(isEvalgateError(failure("{{ x("), "PROMPT_TEMPLATE_INVALID")).toBe(true);
  });
});

describe("renderDecodeTemplate: bounds", () => {
  it("a template over MAX_TEMPLATE_CHARS is not parsed", () => {
    const error = failure("x".repeat(MAX_TEMPLATE_CHARS + 1));
    expect(error.message).toContain(`at most ${MAX_TEMPLATE_CHARS}`);
    expect(render("x".repeat(MAX_TEMPLATE_CHARS))).toHaveLength(MAX_TEMPLATE_CHARS);
  });

  it("counts render steps: nested loops over a short list stop at MAX_RENDER_STEPS", () => {
    // The clock stands still, so on a busy machine the render's time limit cannot stop it first:
    // only the count of steps can.
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      countsRenderSteps();
    } finally {
      vi.useRealTimers();
    }
  });

  function countsRenderSteps(): void {
    const six = ["1", "2", "3", "4", "5", "6"];
    // 6^7 = 279,936 passes of the innermost loop, each at least one step.
    const nested = `${"{% for a in six %}".repeat(7)}{% endfor %}`.replace(
      "{% endfor %}",
      "{% endfor %}".repeat(7),
    );
    expect(failure(nested, { six }).message).toContain(`more than ${MAX_RENDER_STEPS} steps`);
    // 6^6 = 46,656 passes render.
    const fewer = `${"{% for a in six %}".repeat(6)}{% endfor %}`.replace(
      "{% endfor %}",
      "{% endfor %}".repeat(6),
    );
    expect(render(fewer, { six })).toBe("");
  }

  it("counts memory: ranges and many strings stop at TEMPLATE_MEMORY_UNITS", () => {
    const memory = `more than ${TEMPLATE_MEMORY_UNITS} characters or list items`;
    expect(
      failure(`{% for i in (1..${TEMPLATE_MEMORY_UNITS + 1}) %}{% endfor %}`).message,
    ).toContain(memory);
    // Each copy is 200,000 characters (under every bound of one value); 30 of them are not.
    expect(
      failure("{% for i in (1..30) %}{% assign t = s | append: s %}{% endfor %}", {
        s: "x".repeat(100_000),
      }).message,
    ).toContain(memory);
  });

  it("doubled strings and lists stop at MAX_TEMPLATE_TEXT_CHARS, before they are built", () => {
    const text = `more than ${MAX_TEMPLATE_TEXT_CHARS.toLocaleString("en-US")} characters`;
    expect(
      failure(
        '{% assign s = "0123456789" %}{% for i in (1..30) %}{% assign s = s | append: s %}{% endfor %}',
      ).message,
    ).toContain(text);
    expect(
      failure(
        '{% assign a = "1,2" | split: "," %}{% for i in (1..30) %}{% assign a = a | concat: a %}{% endfor %}',
      ).message,
    ).toContain(text);
  });

  it("bounds the output, and what a capture may hold, to MAX_DECODE_PROMPT_CHARS", () => {
    const chunk = "x".repeat(1_000);
    const times = MAX_DECODE_PROMPT_CHARS / chunk.length;
    expect(render(`{% for i in (1..${times}) %}{{ chunk }}{% endfor %}`, { chunk })).toHaveLength(
      MAX_DECODE_PROMPT_CHARS,
    );
    const over = `{% for i in (1..${times + 1}) %}{{ chunk }}{% endfor %}`;
    expect(failure(over, { chunk }).message).toContain(
      `more than ${MAX_DECODE_PROMPT_CHARS} characters`,
    );
    const captured = `{% capture all %}${over}{% endcapture %}{{ all | size }}`;
    expect(failure(captured, { chunk }).message).toContain(
      `more than ${MAX_DECODE_PROMPT_CHARS} characters`,
    );
  });

  it("stops a render that never returns (here a value whose getter loops) at the hard stop", () => {
    const scope = {
      stuck: Object.defineProperty({}, "forever", {
        enumerable: true,
        get(): number {
          for (;;) {
            // a step Liquid cannot interrupt
          }
        },
      }),
    };
    const error = failure("before\n{{ stuck.forever }}", scope);
    expect(error.message).toContain(`rendering took longer than ${RENDER_HARD_STOP_MS} ms`);
    // The engine is still usable afterwards.
    expect(render("{{ a }}", { a: "fine" })).toBe("fine");
  });

  it("a template nested too deeply is an error, not a crash", () => {
    const deep = `${"{%if a%}".repeat(5_000)}${"{%endif%}".repeat(5_000)}`;
    expect(failure(deep).message).toContain("nests too deeply");
  });
});
