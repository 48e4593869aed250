/**
 * Bounded templates: a decode prompt cannot make text, memory or time grow past its bounds, filters
 * included. A list of references costs little memory and prints as gigabytes: every value is
 * measured before it becomes text (MAX_TEMPLATE_TEXT_CHARS), and the renders of one evaluation
 * share one time budget (TEMPLATE_TIME_BUDGET_MS). The attack that took 2.86 GB — a 100 kB string,
 * 1,500 references to it in a list, 40 such lists in a list, then `{{ b | string | size }}` — and
 * its variants end with a clear error in a process whose heap is 512 MB, and `catalog validate`
 * refuses them naming the criterion and the bound.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CatalogSchema } from "../../src/criteria/model.js";
import {
  createTemplateTimeBudget,
  MAX_TEMPLATE_TEXT_CHARS,
} from "../../src/criteria/promptTemplate.js";
import { validateCatalog } from "../../src/criteria/validate.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { compileDecodeTemplate, renderDecodeTemplate } from "../../src/judge/decodePrompt.js";
import { isDecodeTemplateError } from "../../src/judge/errors.js";
import { runEvalgate, SPAWN_TIMEOUT, tempFolderForFile, writeText } from "../cli/helpers.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { judgeOf } from "../engine/helpers.js";

const ROOT = join(import.meta.dirname, "../..");
const folder = tempFolderForFile();

/** The attack's first part: `s` is 100,000 characters, `a` 1,500 references to it, `b` 40 of `a`. */
const BUILD = [
  "{% capture t %}{% for i in (1..100) %}0123456789{% endfor %}{% endcapture %}",
  "{% capture s %}{% for i in (1..100) %}{{ t }}{% endfor %}{% endcapture %}",
  '{% assign a = "" | split: "," %}{% for i in (1..1500) %}{% assign a = a | push: s %}{% endfor %}',
  '{% assign b = "" | split: "," %}{% for j in (1..40) %}{% assign b = b | push: a %}{% endfor %}',
].join("");

/** The attack (about 400 characters) and its variants: each prints or compares the lists as text. */
const ATTACKS: Record<string, string> = {
  "string | size": `${BUILD}{{ b | string | size }}`,
  "join | size": `${BUILD}{{ b | join: "" | size }}`,
  "title | size": `${BUILD}{{ b | title | size }}`,
  "upcase | size": `${BUILD}{{ b | upcase | size }}`,
  "printed as it is": `${BUILD}{{ b }}`,
  "json | size": `${BUILD}{{ b | json | size }}`,
  compared: `${BUILD}{% if b > "x" %}y{% endif %}`,
  searched: `${BUILD}{% if s contains b %}y{% endif %}`,
  "a property named by the list": `${BUILD}{{ criterion[b] }}`,
  "built by concat": [
    "{% capture s %}{% for i in (1..10000) %}0123456789{% endfor %}{% endcapture %}",
    '{% assign one = s | split: "§" %}{% assign a = one %}',
    "{% for i in (1..2000) %}{% assign a = a | concat: one %}{% endfor %}{{ a | string | size }}",
  ].join(""),
  "doubled by pushing itself": [
    '{% assign a = "0123456789" | split: "§" %}',
    "{% for i in (1..60) %}{% assign a = a | push: a %}{% endfor %}{{ a | join | size }}",
  ].join(""),
};

function failure(template: string, scope: Record<string, unknown> = {}): string {
  try {
    renderDecodeTemplate(template, scope, { criterionId: "depth" });
  } catch (error) {
    if (isDecodeTemplateError(error)) return error.message;
    throw error;
  }
  throw new Error("expected the template to fail");
}

/** A rubric of `count` levels criteria, each with `decodePrompt`. */
function rubric(decodePrompt: string, count = 1) {
  return {
    id: "quiz",
    name: "Quiz",
    version: "1.0.0",
    target_type: "content",
    pass_threshold: 0.5,
    criteria: Array.from({ length: count }, (_, i) => ({
      id: `depth${i + 1}`,
      name: `Depth ${i + 1}`,
      description: "Questions test understanding",
      weight: 1,
      levels: [
        { id: "poor", label: "Poor", description: "Recall only", score: 0 },
        { id: "good", label: "Good", description: "Asks why", score: 1 },
      ],
      scoring_method: { type: "llm_decode", decode_prompt: decodePrompt },
    })),
  };
}

describe("the attack and its variants, in a process with a 512 MB heap", () => {
  it("each ends with an error naming the bound, and the process ends normally", () => {
    const module = pathToFileURL(join(ROOT, "dist/src/judge/decodePrompt.js")).href;
    const script = `
      const { renderDecodeTemplate } = await import(${JSON.stringify(module)});
      const attacks = JSON.parse(process.argv[1]);
      const out = {};
      for (const [name, template] of Object.entries(attacks)) {
        try {
          out[name] = "rendered " + renderDecodeTemplate(template, { criterion: {} }).length;
        } catch (error) {
          out[name] = error.message;
        }
      }
      console.log(JSON.stringify(out));`;
    const child = spawnSync(
      process.execPath,
      ["--max-old-space-size=512", "--input-type=module", "-e", script, JSON.stringify(ATTACKS)],
      { encoding: "utf8", timeout: 120_000 },
    );
    expect(child.stderr).not.toContain("heap limit");
    expect(child.status).toBe(0);
    const outcomes = JSON.parse(child.stdout) as Record<string, string>;
    expect(Object.keys(outcomes)).toEqual(Object.keys(ATTACKS));
    for (const [name, message] of Object.entries(outcomes)) {
      expect(message, name).toContain("MAX_TEMPLATE_TEXT_CHARS");
      expect(message, name).toMatch(/^line \d+, column \d+: /);
    }
  }, 150_000);

  it.each([
    ["string", "{{ a | string }}"],
    ["join", '{{ a | join: "" }}'],
    ["title", "{{ a | title }}"],
    ["upcase", "{{ a | upcase }}"],
    ["json", "{{ a | json }}"],
    ["printed as it is", "{{ a }}"],
    ["printed raw", "{{ a | raw }}"],
    ["echoed", "{% echo a %}"],
    ["compared", '{% if a < "x" %}y{% endif %}'],
    ["searched", "{% if s contains a %}y{% endif %}"],
    ["sorted", "{{ a | sort | size }}"],
  ])("a list that prints as over the bound is refused before it is printed (%s)", (_name, tail) => {
    // Ten references to a 100,000-character string: 1,000,010 characters as text.
    const ten =
      '{% assign a = "" | split: "," %}{% for i in (1..10) %}{% assign a = a | push: s %}{% endfor %}';
    const message = failure(`${ten}${tail}`, { s: "x".repeat(100_000) });
    expect(message).toMatch(/MAX_TEMPLATE_TEXT_CHARS|more than 200000 characters/);
  });

  it("a list used as a property name is no name: nothing is looked up, nothing printed", () => {
    const built = '{% assign a = "x,y" | split: "," %}';
    expect(renderDecodeTemplate(`${built}[{{ criterion[a] }}]`, { criterion: { "x,y": 1 } })).toBe(
      "[]",
    );
  });

  it("a list is counted, not printed: `size` of the lists still answers", () => {
    const built = [
      '{% assign a = "" | split: "," %}{% for i in (1..9) %}{% assign a = a | push: s %}{% endfor %}',
    ].join("");
    const s = "x".repeat(100_000);
    expect(renderDecodeTemplate(`${built}{{ a | size }}`, { s })).toBe("9");
    expect(
      failure(`${built}{% assign a = a | push: s %}{{ a | push: s | size }}`, { s }),
    ).toContain(`more than ${MAX_TEMPLATE_TEXT_CHARS.toLocaleString("en-US")} characters`);
  });

  it("lists nested deeper than the bound are refused when measured", () => {
    const deep =
      '{% assign a = "x" | split: "§" %}{% for i in (1..100) %}{% assign a = "y" | split: "§" | push: a %}{% endfor %}{{ a }}';
    expect(failure(deep)).toContain("nests lists more than 64 deep");
  });
});

describe("what a drop offers a template: its own fields, nothing inherited", () => {
  it("loop and forloop render their fields; hasOwnProperty, constructor and next render nothing", () => {
    const template = [
      "[{{ loop.hasOwnProperty }}{{ loop.constructor }}{{ loop.toString }}]",
      "{% for q in qs %}{{ forloop.index }}{{ loop.index }}",
      "[{{ forloop.hasOwnProperty }}{{ forloop.next }}{{ forloop.valueOf }}{{ loop.next }}]",
      "{{ forloop.index }}{% endfor %}",
    ].join("");
    // `forloop.next` would move the loop on: the index after it is the same.
    expect(renderDecodeTemplate(template, { qs: ["a", "b"] })).toBe("[]11[]122[]2");
  });
});

describe("one time budget for the templates of an evaluation", () => {
  const SPIN = "{% for i in (1..100000) %}{% if content contains 'ab' %}x{% endif %}{% endfor %}";

  it("once spent, the templates left are not rendered: one stopped, every other refused", () => {
    const budget = createTemplateTimeBudget(1);
    const compiled = compileDecodeTemplate(SPIN);
    const outcomes = Array.from({ length: 30 }, () => {
      try {
        return renderDecodeTemplate(compiled, { content: "aaaa" }, {}, budget);
      } catch (error) {
        return isDecodeTemplateError(error) ? error.message : String(error);
      }
    });
    expect(outcomes.filter((m) => m.endsWith("this one was stopped"))).toHaveLength(1);
    expect(outcomes.filter((m) => m.endsWith("this one was not rendered"))).toHaveLength(29);
  });

  it("thirty slow criteria in one evaluation: once the budget is spent the rest are not rendered", async () => {
    // On the sample content each renders at once; on this content each step scans a megabyte,
    // so each render runs until it is stopped (its second, or what is left of the budget).
    const slow = "{% for i in (1..5000) %}{% if content contains 'ab' %}x{% endif %}{% endfor %}";
    const judge = new ScriptedChatModel({
      responder: () => '{"reasoning": "Asks why.", "level_id": "good"}',
    });
    const result = await evaluateContent({
      content: "a".repeat(1_000_000),
      catalog: rubricCatalog(slow, 30),
      model: judgeOf(judge),
      maxContentBytes: 2_000_000,
    });
    expect(result.criteria.every((c) => !c.evaluated)).toBe(true);
    expect(judge.calls).toHaveLength(0);
    const reasons = result.criteria.map((c) => c.judgeError ?? "");
    const ran = reasons.filter((r) => !r.includes("this one was not rendered"));
    // At most four renders ran in the 3 s budget (each until a 1 s stop, the last one less).
    expect(ran.length).toBeLessThanOrEqual(4);
    for (const reason of ran) expect(reason).toMatch(/took longer than|this one was stopped/);
  }, 60_000);
});

function rubricCatalog(decodePrompt: string, count: number) {
  return CatalogSchema.parse({
    id: "quiz",
    name: "Quiz",
    version: "1",
    criteria: Array.from({ length: count }, (_, i) => ({
      id: `depth${i + 1}`,
      title: `Depth ${i + 1}`,
      description: "Questions test understanding",
      weight: 1,
      method: {
        kind: "levels",
        levels: [
          { id: "poor", label: "Poor", score: 0 },
          { id: "good", label: "Good", score: 1 },
        ],
        decodePrompt,
      },
    })),
  });
}

describe("catalog validate refuses a template that reaches a bound on a sample render", () => {
  it("names the criterion and the bound (the library's check)", () => {
    const findings = validateCatalog(rubricCatalog(ATTACKS["string | size"] ?? "", 1));
    expect(findings).toContainEqual(
      expect.objectContaining({
        severity: "error",
        check: "prompt_template",
        message: expect.stringMatching(
          /^criterion "depth1": its decode prompt cannot be used: on a sample render, .*MAX_TEMPLATE_TEXT_CHARS/,
        ),
      }),
    );
  });

  it(
    "the command, under a 512 MB heap: exit 1 naming the criterion and the bound, and evaluate refuses it",
    async () => {
      const attacks = Object.values(ATTACKS).slice(0, 5);
      const file = await writeText(
        folder.dir,
        "attack.json",
        JSON.stringify(
          {
            ...rubric("", 0),
            criteria: attacks.flatMap((t, i) =>
              rubric(t).criteria.map((c) => ({ ...c, id: `attack${i + 1}` })),
            ),
          },
          null,
          2,
        ),
      );
      const env = { NODE_OPTIONS: "--max-old-space-size=512" };
      const validated = await runEvalgate(["catalog", "validate", file], { env });
      expect(validated.stderr).not.toContain("heap limit");
      expect(validated.code).toBe(1);
      for (let i = 1; i <= attacks.length; i++) {
        expect(validated.stdout).toMatch(
          new RegExp(
            `criterion "attack${i}": its decode prompt cannot be used: on a sample render, .*MAX_TEMPLATE_TEXT_CHARS`,
          ),
        );
      }
      const content = await writeText(folder.dir, "quiz.md", "Why does ice float?\n");
      const evaluated = await runEvalgate(["evaluate", content, "--catalog", file], { env });
      expect(evaluated.stderr).not.toContain("heap limit");
      expect(evaluated.code).toBe(2);
      expect(evaluated.stderr).toContain('criterion "attack1"');
      expect(evaluated.stderr).toContain("MAX_TEMPLATE_TEXT_CHARS");
    },
    SPAWN_TIMEOUT,
  );
});
