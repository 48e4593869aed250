/**
 * What the peer benchmark's server answers: what a judge model would write for each caller.
 *
 * - A request with a JSON Schema `format` (Ollama structured output: openevals' score schema,
 *   evalgate's per-criterion answer contract) gets one JSON object with the schema's properties in
 *   the schema's order: the reasoning, then the value (a number within the schema's bounds or 0–1
 *   when the schema names none, a boolean, one of an enum), one quote when it asks for quotes, one
 *   or two short hits and misses when it asks for lists.
 * - A prompt asking for a TOON table `results[K]{fields}:` gets one row per listed criterion id,
 *   after the guard's clean screening line when the prompt asks for one (its reasoning cut to the
 *   words the prompt allows).
 * - The injection guard's question gets a clean verdict; any other prompt the single-criterion
 *   answer of the engine benchmark (bench/latencyAnswers.ts), read from its answer format.
 *
 * The decision comes from the criterion's title (a hash), so a criterion gets the same decision
 * from every caller. The reasoning is the same judge sentence for every caller: a quote of the
 * content sentence nearest the criterion and a verdict (about 45 words). A prompt that bounds the
 * reasoning ("at most N words") is obeyed by cutting it to N words; openevals' schema asks the
 * reasoning to end with "Thus, the score should be: …", and it does.
 */
import {
  type AnswerShape,
  batchCriteria,
  batchIds,
  composeAnswer,
  contentOf,
  type Decision,
  decide,
  LatencyPromptError,
  lastHuman,
  type PromptMessage,
  quoteFor,
  reasoningFor,
} from "./latencyAnswers.js";

export interface PeerAnswer {
  text: string;
  /** criterion (one JSON object), table (several criteria), guard. */
  purpose: "criterion" | "table" | "guard";
}

interface JsonSchemaProperty {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  description?: string;
}

const TABLE_HEADER = /results\[(\d+)\]\{([^}\n]+)\}:/;
const WORD_LIMIT = /reasoning[^\n]*at most (\d+) words/;
const QUOTE_WORD_LIMIT = /quote[^\n]*\n?[^\n]*each at most (\d+) words/;
const NO_REPEAT = /without repeating the quotes/;
const OPENEVALS_SCORE_SENTENCE = "Thus, the score should be";
/** A judging call that carries the guard's question asks for this line before its table. */
const SCREENING_ASKED =
  /"reasoning": "<at most (\d+) words[^\n]*"instruction_bearing": true \| false\}/;
const GUARD_ANSWER = {
  reasoning: "Ordinary proposal text written for human reviewers; nothing in it addresses an AI.",
  instruction_bearing: false,
};

/** The content under evaluation: evalgate's fenced block, else a `<section>` element. */
function contentIn(messages: readonly PromptMessage[]): string {
  const fenced = contentOf(messages);
  if (fenced !== "") return fenced;
  for (const message of messages) {
    const found = /<section>\n?([\s\S]*?)\n?<\/section>/.exec(message.text);
    if (found !== null) return found[1] ?? "";
  }
  return "";
}

/** The first `n` words of a text (all of it when it is shorter). */
export function firstWords(text: string, n: number | undefined): string {
  if (n === undefined) return text;
  const words = text.split(/\s+/).filter((w) => w !== "");
  return words.length <= n ? text : words.slice(0, n).join(" ");
}

/** The reasoning's word limit the answer format sets (not the screening line's own). */
function wordLimit(user: string): number | undefined {
  const found = WORD_LIMIT.exec(user.replace(new RegExp(SCREENING_ASKED.source, "g"), ""));
  return found === null ? undefined : Number(found[1]);
}

function shapeOf(property: JsonSchemaProperty): AnswerShape {
  if (Array.isArray(property.enum)) {
    const ids = property.enum.map(String);
    return ids.length === 2 && ids.includes("pass") && ids.includes("fail")
      ? { kind: "check" }
      : { kind: "levels", ids };
  }
  if (property.type === "boolean") return { kind: "check" };
  return {
    kind: "scale",
    min: property.minimum ?? 0,
    max: property.maximum ?? 1,
    integer: property.type === "integer",
  };
}

function decisiveValue(property: JsonSchemaProperty, decision: Decision): unknown {
  if (property.type === "boolean") return decision.value === "pass";
  return decision.value;
}

const DECISIVE = ["score", "result", "level_id"];

function listItems(name: string, title: string, decision: Decision, most: number): string[] {
  const items =
    name === "hits"
      ? [`Concrete evidence on ${title.toLowerCase()}`, "Figures with named sources"]
      : decision.quality >= 0.9
        ? []
        : ["Some claims are not backed by a source"];
  return items.slice(0, most);
}

/** One JSON object following the schema's properties, in order. */
function schemaAnswer(
  properties: Record<string, JsonSchemaProperty>,
  messages: readonly PromptMessage[],
): PeerAnswer {
  const user = lastHuman(messages);
  if ("instruction_bearing" in properties) {
    return { text: JSON.stringify(GUARD_ANSWER), purpose: "guard" };
  }
  const title = /^(?:Criterion|Requirement): (.*)$/m.exec(user)?.[1]?.trim() ?? "the criterion";
  const decisive = DECISIVE.find((name) => name in properties);
  const property = decisive === undefined ? undefined : properties[decisive];
  if (decisive === undefined || property === undefined) {
    throw new LatencyPromptError("the schema has no score, result or level_id");
  }
  const decision = decide(shapeOf(property), title);
  const content = contentIn(messages);
  const answer: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(properties)) {
    if (name === decisive) answer[name] = decisiveValue(spec, decision);
    else if (name === "reasoning") {
      let reasoning = firstWords(reasoningFor(title, content, decision), wordLimit(user));
      if (spec.description?.includes(OPENEVALS_SCORE_SENTENCE)) {
        reasoning += ` ${OPENEVALS_SCORE_SENTENCE}: ${String(decisiveValue(property, decision))}.`;
      }
      answer[name] = reasoning;
    } else if (name === "quotes") answer[name] = [quoteFor(title, content).replace(/ …$/, "")];
    else if (name === "hits" || name === "misses") {
      answer[name] = listItems(name, title, decision, spec.maxItems ?? 2);
    }
  }
  return { text: JSON.stringify(answer), purpose: "criterion" };
}

/** A TOON table with one row per listed criterion, the fields the header names. */
function tableAnswer(messages: readonly PromptMessage[], user: string): PeerAnswer {
  const header = TABLE_HEADER.exec(user);
  const count = Number(header?.[1]);
  const fields = (header?.[2] ?? "").split(",");
  const ids = batchIds(user);
  if (ids === undefined || ids.length !== count) {
    throw new LatencyPromptError(`the table prompt lists no ${count} criterion ids`);
  }
  const criteria = batchCriteria(messages.map((m) => m.text).join("\n"));
  const content = contentIn(messages);
  const limit = wordLimit(user);
  const quoteLimit = QUOTE_WORD_LIMIT.exec(user);
  const quoted = fields.some((field) => field.startsWith("quote"));
  // A table with its own quotes column asks the reasoning not to repeat them.
  const bare = quoted && NO_REPEAT.test(user);
  const rows = ids.map((id) => {
    const criterion = criteria.get(id);
    if (criterion === undefined) {
      throw new LatencyPromptError(`the table prompt has no criterion block for ${id}`);
    }
    const decision = decide(criterion.shape, criterion.title);
    const cells = fields.map((field) => {
      if (field === "id") return id;
      if (field === "score") return String(decision.value);
      if (field === "reasoning") {
        const reasoning = reasoningFor(criterion.title, content, decision, bare);
        return JSON.stringify(firstWords(reasoning, limit));
      }
      if (field.startsWith("quote")) {
        const quote = quoteFor(criterion.title, content).replace(/ …$/, "");
        return JSON.stringify(
          firstWords(quote, quoteLimit === null ? undefined : Number(quoteLimit[1])),
        );
      }
      return '""';
    });
    return `  ${cells.join(",")}`;
  });
  const screening = SCREENING_ASKED.exec(user);
  const guardLine =
    screening === null
      ? []
      : [
          JSON.stringify({
            reasoning: firstWords(GUARD_ANSWER.reasoning, Number(screening[1])),
            instruction_bearing: GUARD_ANSWER.instruction_bearing,
          }),
        ];
  return { text: [...guardLine, header?.[0] ?? "", ...rows].join("\n"), purpose: "table" };
}

/** The answer to one chat request. */
export function peerAnswer(messages: readonly PromptMessage[], format: unknown): PeerAnswer {
  if (typeof format === "object" && format !== null && "properties" in format) {
    const properties = (format as { properties: Record<string, JsonSchemaProperty> }).properties;
    return schemaAnswer(properties, messages);
  }
  const user = lastHuman(messages);
  if (TABLE_HEADER.test(user)) return tableAnswer(messages, user);
  if (user.includes('"instruction_bearing"')) {
    return { text: JSON.stringify(GUARD_ANSWER), purpose: "guard" };
  }
  return { text: composeAnswer(messages).text, purpose: "criterion" };
}
