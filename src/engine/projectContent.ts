/**
 * What a project folder's deterministic criteria read. A project has no content of its own: its
 * documents are what is judged. The LLM criteria read passages retrieved from them; the function
 * checks read their whole text, each document under a line naming it, in name order.
 */
import { notEvaluated } from "../checks/outcomes.js";
import type { SourceDocument } from "../context/types.js";
import { type Catalog, type Criterion, isLlmMethod } from "../criteria/model.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { checkContentBudget } from "./contentBudget.js";
import { EvaluationError } from "./errors.js";

/** The line before each document's text, as `head` names the files it prints. */
export function documentHeader(name: string): string {
  return `==> ${name} <==`;
}

/** Every document under its header line, sorted by name (as a folder's are loaded). */
export function projectText(documents: readonly SourceDocument[]): string {
  const sorted = [...documents].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sorted.map((d) => `${documentHeader(d.name)}\n${d.text}`).join("\n\n");
}

interface ProjectInput {
  catalog: Catalog;
  /** The content as text; a project has none. */
  text: string;
  content: unknown;
  documents?: readonly SourceDocument[];
  projectFolder?: string;
  maxContentBytes?: number;
}

/**
 * What the deterministic criteria read: the content, or a project's documents' text, held to the
 * content budget (only when some criterion reads it).
 */
export function checkedContent(input: ProjectInput): unknown {
  const folder = input.projectFolder;
  if (folder === undefined) return input.content;
  if (input.text !== "") {
    throw new EvaluationError(
      "input",
      `the project folder ${folder} is judged on its documents: give no content beside it`,
    );
  }
  const documents = input.documents ?? [];
  if (documents.length === 0) {
    throw new EvaluationError("input", `the project folder ${folder} holds no documents to judge`);
  }
  if (input.catalog.criteria.every((c) => isLlmMethod(c.method))) return "";
  const text = projectText(documents);
  const what = `the text of the project folder ${folder} (its documents joined)`;
  checkContentBudget(text, input.maxContentBytes, what);
  return text;
}

/** A schema criterion checks one JSON value; a project's documents are not one. */
export function schemaOnProject(criterion: Criterion, folder: string): CriterionOutcome {
  const message =
    `the schema criterion '${criterion.id}' checks JSON content, and the project folder ` +
    `${folder} is judged on its documents, which are not one JSON value; evaluate the JSON ` +
    "file itself as the content";
  return notEvaluated(`The JSON Schema check could not be made: ${message}`, message);
}
