/**
 * The engine benchmark's input: a 20-criterion catalog (score 1–5 with guideline bands, score 0–1,
 * pass/fail checks and levels; weights summing to 1), loaded through parseCatalog so the
 * meta-rubric runs, and about 600 words of the sample proposal draft.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Catalog, type CriterionInput, parseCatalog } from "../src/criteria/index.js";

/** The proposal draft the content is taken from. */
export const PROPOSAL_PATH = fileURLToPath(
  new URL("../data/proposals/climate-resilience-draft.md", import.meta.url),
);

/** Whole paragraphs from the start of the draft until at least `words` words are taken. */
export async function proposalExcerpt(words = 600): Promise<string> {
  const text = await readFile(PROPOSAL_PATH, "utf8");
  const taken: string[] = [];
  let count = 0;
  for (const paragraph of text.split(/\n\s*\n/)) {
    if (count >= words) break;
    taken.push(paragraph.trim());
    count += paragraph.split(/\s+/).filter((w) => w !== "").length;
  }
  return taken.join("\n\n");
}

interface Bands {
  excellent: string;
  good: string;
  adequate: string;
  poor: string;
  inadequate: string;
}

function bands(subject: string): Bands {
  return {
    excellent: `${subject} is specific, quantified and backed by named sources throughout.`,
    good: `${subject} is clear and mostly evidenced, with minor gaps.`,
    adequate: `${subject} is present but general; several claims lack evidence.`,
    poor: `${subject} is vague or only implied.`,
    inadequate: `${subject} is missing or contradicted by the content.`,
  };
}

const FIVE = { min: 1, max: 5, integer: true };
const UNIT = { min: 0, max: 1, integer: false };

function fivePoint(id: string, title: string, description: string, weight: number) {
  return {
    id,
    title,
    description,
    weight,
    method: { kind: "score", scale: FIVE, guidelines: bands(title) },
  } satisfies CriterionInput;
}

function unit(id: string, title: string, description: string, weight: number) {
  return {
    id,
    title,
    description,
    weight,
    method: { kind: "score", scale: UNIT },
  } satisfies CriterionInput;
}

function check(id: string, title: string, description: string, weight: number) {
  return { id, title, description, weight, method: { kind: "check" } } satisfies CriterionInput;
}

function levels(id: string, title: string, description: string, weight: number) {
  return {
    id,
    title,
    description,
    weight,
    method: {
      kind: "levels",
      levels: [
        { id: "absent", label: "Absent", description: `No ${title.toLowerCase()}.`, score: 0 },
        { id: "partial", label: "Partial", description: "Named but not worked out.", score: 0.5 },
        { id: "solid", label: "Solid", description: "Worked out with evidence.", score: 0.8 },
        { id: "exemplary", label: "Exemplary", description: "Complete and verified.", score: 1 },
      ],
    },
  } satisfies CriterionInput;
}

/** 6 × 1–5 (0.07), 5 × 0–1 (0.05), 5 checks (0.03), 4 levels (0.045): Σ = 1. */
const CRITERIA: CriterionInput[] = [
  fivePoint("problem", "Problem definition", "How clearly is the local problem defined?", 0.07),
  fivePoint("evidence", "Evidence base", "How well do data and sources support the need?", 0.07),
  fivePoint("population", "Affected population", "Who is affected, and how precisely?", 0.07),
  fivePoint("gap", "Service gap", "Does it show why existing services fall short?", 0.07),
  fivePoint("hazards", "Climate hazards", "How well are heat and flood hazards described?", 0.07),
  fivePoint("urgency", "Urgency", "Does it make clear why action is needed now?", 0.07),
  unit("equity", "Equity focus", "To what extent does it centre renters, elders, speakers?", 0.05),
  unit("local", "Local knowledge", "To what extent does it use the applicant's own survey?", 0.05),
  unit("clarity", "Clarity of writing", "How readable and well organised is the text?", 0.05),
  unit("numbers", "Quantified claims", "How many claims carry figures with a source?", 0.05),
  unit("fit", "Funder fit", "How well does it match a community climate resilience RFP?", 0.05),
  check(
    "applicant",
    "Applicant named",
    "Is the applicant organisation named with its status?",
    0.03,
  ),
  check("amount", "Amount stated", "Is the requested amount stated in dollars?", 0.03),
  check("period", "Project period", "Are the project start and end dates given?", 0.03),
  check("contact", "Contact person", "Is a contact person named with a role?", 0.03),
  check("area", "Service area", "Is the service area named with census tracts?", 0.03),
  levels("engagement", "Community engagement", "How are residents involved in the work?", 0.045),
  levels("partners", "Partnerships", "How are partner organisations and roles described?", 0.045),
  levels("outcomes", "Measurable outcomes", "How measurable are the intended outcomes?", 0.045),
  levels("risk", "Risk awareness", "How are risks to delivery identified and handled?", 0.045),
];

/** The catalog, through parseCatalog (meta-rubric included). */
export function benchCatalog(): Catalog {
  const input = {
    id: "bench_engine_20",
    name: "Engine benchmark: 20 criteria",
    version: "1.0",
    passingThreshold: 0.7,
    criteria: CRITERIA,
  };
  return parseCatalog(JSON.stringify(input), { format: "json", source: "bench/engineCatalog.ts" });
}
