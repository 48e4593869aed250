/**
 * `catalog validate` and the commands that use a catalog refuse the same catalogs with the same
 * message: for each invalid catalog below, `catalog validate` exits 1 and `evaluate` exits 2
 * (nothing was decided), both printing the same text; a rubric file is refused by `rubrics
 * register` with it too, and a blueprint's points by `blueprint run`. Run in process through the
 * real program (its error table included), and once through bin/evalgate.mjs.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createCliContext } from "../../src/cli/context.js";
import { runCli } from "../../src/cli/main.js";
import { runEvalgate, SPAWN_TIMEOUT, tempFolderForFile } from "./helpers.js";

const folder = tempFolderForFile();

const LEVELS = [
  { id: "weak", label: "Weak", description: "Recall only", score: 0 },
  { id: "fair", label: "Fair", description: "Some reasoning", score: 0.5 },
];

function check(id: string, weight: number) {
  return {
    id,
    title: `Criterion ${id}`,
    description: `Does the text address ${id}?`,
    weight,
    method: { kind: "check" },
  };
}

function rubric(decodePrompt: string, extra: Record<string, unknown> = {}) {
  return {
    id: "quiz_probe",
    name: "Quiz probe",
    version: "1.0.0",
    pass_threshold: 0.4,
    criteria: [
      {
        id: "reasoning",
        name: "Reasoning",
        description: "Questions ask for reasons",
        weight: 1,
        levels: LEVELS,
        scoring_method: { type: "llm_decode", decode_prompt: decodePrompt },
      },
    ],
    ...extra,
  };
}

function native(criteria: unknown[], extra: Record<string, unknown> = {}) {
  return { id: "probe", name: "Probe", version: "1.0.0", criteria, ...extra };
}

/** Each invalid catalog, and a fragment its message must have (written here, not produced). */
const INVALID: Array<{ name: string; file: string; document: unknown; says: string }> = [
  {
    name: "weights of 1e308",
    file: "huge-weights.json",
    document: native([check("a", 1e308), check("b", 1e308)]),
    says: "not a finite number",
  },
  {
    name: "a scale of -1e308..1e308",
    file: "huge-scale.json",
    document: native([
      { ...check("a", 1), method: { kind: "score", scale: { min: -1e308, max: 1e308 } } },
    ]),
    says: "finite numbers within ±1,000,000",
  },
  {
    name: "weights all 0",
    file: "zero-weights.json",
    document: native([check("a", 0), check("b", 0)]),
    says: "sum to 0",
  },
  {
    name: "a duplicated id",
    file: "duplicate-id.json",
    document: native([check("a", 1), check("a", 1)]),
    says: 'duplicate criterion id "a"',
  },
  {
    name: "an unknown point function",
    file: "unknown-function.json",
    document: native([{ ...check("f", 1), method: { kind: "function", name: "no_such_fn" } }]),
    says: 'unknown point function "no_such_fn"',
  },
  {
    name: "a threshold out of reach",
    file: "threshold.json",
    document: rubric("Judge {{ questions }}", { pass_threshold: 0.9 }),
    says: "passing threshold 0.9 is unreachable",
  },
  {
    name: "a decode prompt with a syntax error",
    file: "syntax.json",
    document: rubric("Judge these:\n{% for q in questions %}- {{ q }}"),
    says: "template line 2",
  },
  {
    name: "a decode prompt that calls a function",
    file: "call.json",
    document: rubric('Judge\n{{ range[["constructor"]]("return process.env.HOME")() }}'),
    says: "its decode prompt cannot be used",
  },
  {
    name: "a decode prompt with a file tag",
    file: "include.json",
    document: rubric('Judge\n{% include "/etc/passwd" %}'),
    says: "'include' is not allowed",
  },
];

beforeAll(async () => {
  await writeFile(join(folder.dir, "content.txt"), "A short text to judge.\n");
  for (const each of INVALID) {
    await writeFile(join(folder.dir, each.file), JSON.stringify(each.document, null, 2));
  }
});

async function run(args: readonly string[]) {
  let stdout = "";
  let stderr = "";
  const context = createCliContext({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: folder.dir,
  });
  const code = await runCli(args, context);
  return { code, stdout, stderr };
}

/** The message of `catalog validate`'s first error line. */
function validateMessage(stdout: string): string {
  const match = /^\s+error\s+\S+\s+(.*?)\s{2}\(at /m.exec(stdout);
  if (match?.[1] === undefined) throw new Error(`no error line in:\n${stdout}`);
  return match[1];
}

describe("catalog validate and evaluate refuse the same catalogs with the same message", () => {
  it.each(INVALID)("$name", async ({ file, says }) => {
    const validated = await run(["catalog", "validate", file]);
    expect(validated.code).toBe(1);
    const message = validateMessage(validated.stdout);
    expect(message).toContain(says);

    const evaluated = await run(["evaluate", "content.txt", "--catalog", file]);
    expect(evaluated.code).toBe(2);
    expect(evaluated.stdout).toBe("");
    expect(evaluated.stderr).toContain(`cannot use the catalog: ${file}:`);
    expect(evaluated.stderr).toContain(`: ${message} [CATALOG_INVALID]\n`);
  });

  const rubrics = INVALID.filter((each) => JSON.stringify(each.document).includes("llm_decode"));
  it.each(rubrics)("rubrics register refuses $name with the same message", async ({ file }) => {
    const message = validateMessage((await run(["catalog", "validate", file])).stdout);
    const registered = await run(["rubrics", "register", file, "--db", `${file}.sqlite`]);
    expect(registered.code).toBe(2);
    expect(registered.stderr).toContain(message);
    const listed = await run(["rubrics", "list", "--db", `${file}.sqlite`]);
    expect(listed.stdout).not.toContain("quiz_probe");
  });

  it("a catalog with three errors: validate lists each, evaluate gives the first and how many more", async () => {
    await writeFile(
      join(folder.dir, "three.json"),
      JSON.stringify(
        native([
          check("a", 0),
          { ...check("a", 0), method: { kind: "function", name: "no_such_fn" } },
        ]),
      ),
    );
    const validated = await run(["catalog", "validate", "three.json"]);
    expect(validated.code).toBe(1);
    const errors = validated.stdout.split("\n").filter((line) => /^\s+error\s/.test(line));
    expect(errors).toHaveLength(3);
    expect(validated.stdout).toContain("invalid: 3 errors");
    const first = validateMessage(validated.stdout);
    expect(first).toContain('duplicate criterion id "a"');
    expect(first).toContain("(and 2 more errors)");
    expect(errors.join("\n")).toContain("sum to 0");
    expect(errors.join("\n")).toContain('unknown point function "no_such_fn"');
    const evaluated = await run(["evaluate", "content.txt", "--catalog", "three.json"]);
    expect(evaluated.code).toBe(2);
    expect(evaluated.stderr).toContain(`: ${first} [CATALOG_INVALID]\n`);
  });

  it("blueprint run refuses a prompt's points that a points catalog file with them is refused for", async () => {
    const points = [["no_such_fn", 1], "Names the main idea"];
    await writeFile(
      join(folder.dir, "points.json"),
      JSON.stringify({ id: "pts", name: "Points", points }),
    );
    await writeFile(
      join(folder.dir, "blueprint.json"),
      JSON.stringify({ id: "bp", prompts: [{ id: "p1", promptText: "Explain.", points }] }),
    );
    const message = validateMessage((await run(["catalog", "validate", "points.json"])).stdout);
    expect(message).toContain('unknown point function "no_such_fn"');
    const blueprint = await run(["blueprint", "run", "blueprint.json"]);
    expect(blueprint.code).toBe(2);
    expect(blueprint.stderr).toContain(message);
  });
});

describe("through bin/evalgate.mjs", () => {
  it(
    "weights of 1e308: validate exits 1 and evaluate exits 2, with the same message",
    async () => {
      const file = join(folder.dir, "huge-weights.json");
      const content = join(folder.dir, "content.txt");
      const [validated, evaluated] = await Promise.all([
        runEvalgate(["catalog", "validate", file]),
        runEvalgate(["evaluate", content, "--catalog", file]),
      ]);
      expect(validated.code).toBe(1);
      const message = validateMessage(validated.stdout);
      expect(message).toContain("not a finite number");
      expect(evaluated.code).toBe(2);
      expect(evaluated.stderr).toContain(message);
    },
    SPAWN_TIMEOUT,
  );
});
