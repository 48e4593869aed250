/**
 * Parsing a prompt template with nothing left unread: Liquid ignores what it does not understand
 * of a tag, so `{{ range(3) }}` or `{{ a if b else c }}` would silently render something else.
 */
import {
  type Liquid,
  Parser,
  type Template,
  Tokenizer,
  type TopLevelToken,
  TypeGuards,
} from "liquidjs";

type DelimitedToken = Extract<TopLevelToken, { contentRange: [number, number] }>;

type ArgumentReader = (tokenizer: Tokenizer) => void;

const LOOP_OPTIONS = new Set(["limit", "offset", "reversed", "cols"]);

const NOT_LIQUID =
  "a template has no function calls and no Python-style expressions (a filter is written `value | name: argument`)";

/** Values and operators must alternate: `a if b else c` or `f (x)` fails at its second value. */
const readValue: ArgumentReader = (tokenizer) => {
  let expectValue = true;
  for (const token of tokenizer.readExpressionTokens()) {
    const operator = TypeGuards.isOperatorToken(token) ? token.operator : undefined;
    if (expectValue && operator === "not") continue;
    if (expectValue === (operator !== undefined)) {
      throw tokenizer.error(
        `unexpected ${JSON.stringify(token.getText())}: ${NOT_LIQUID}`,
        token.begin,
      );
    }
    expectValue = !expectValue;
  }
  tokenizer.readFilters();
};

const readLoop: ArgumentReader = (tokenizer) => {
  tokenizer.readIdentifier();
  tokenizer.readIdentifier();
  tokenizer.readValue();
  for (const option of tokenizer.readHashes()) {
    const name = option.name.content;
    if (!LOOP_OPTIONS.has(name)) {
      throw tokenizer.error(
        `unexpected "${name}" in a for loop: a loop takes only limit, offset and reversed (no loop filter: put an {% if %} inside the loop)`,
        option.begin,
      );
    }
  }
};

const readAssignment: ArgumentReader = (tokenizer) => {
  tokenizer.readIdentifier();
  tokenizer.skipBlank();
  if (tokenizer.peek() === "=") tokenizer.advance();
  readValue(tokenizer);
};

const TAG_ARGUMENTS: ReadonlyMap<string, ArgumentReader> = new Map([
  ["if", readValue],
  ["elsif", readValue],
  ["unless", readValue],
  ["echo", readValue],
  ["for", readLoop],
  ["tablerow", readLoop],
  ["assign", readAssignment],
  ["set", readAssignment],
]);

function argumentsOf(token: DelimitedToken, liquid: Liquid): Tokenizer {
  const { operators, groupedExpressions } = liquid.options;
  const range = token.contentRange;
  const tokenizer = new Tokenizer(token.input, operators, token.file, range, groupedExpressions);
  if (TypeGuards.isTagToken(token)) tokenizer.readTagName();
  tokenizer.skipBlank();
  return tokenizer;
}

function checkNothingLeft(token: DelimitedToken, liquid: Liquid): void {
  const isTag = TypeGuards.isTagToken(token);
  const reader = isTag ? TAG_ARGUMENTS.get(token.name) : readValue;
  if (reader === undefined || !(isTag || TypeGuards.isOutputToken(token))) return;
  const tokenizer = argumentsOf(token, liquid);
  reader(tokenizer);
  tokenizer.skipBlank();
  if (tokenizer.end()) return;
  const rest = tokenizer.remaining().trim();
  throw tokenizer.error(`unexpected ${JSON.stringify(rest)}: ${NOT_LIQUID}`, tokenizer.p);
}

function checkTokens(tokens: readonly DelimitedToken[], liquid: Liquid): void {
  let inComment = false;
  for (const token of tokens) {
    const name = TypeGuards.isTagToken(token) ? token.name : undefined;
    if (name === "comment" || name === "endcomment") {
      inComment = name === "comment";
    } else if (!inComment && name === "liquid") {
      checkTokens(argumentsOf(token, liquid).readLiquidTagTokens(liquid.options), liquid);
    } else if (!inComment) {
      checkNothingLeft(token, liquid);
    }
  }
}

/** Jinja's comments, kept as their line breaks; a scan, linear however many `{#` are open. */
function withoutJinjaComments(text: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("{#", from);
    const close = open < 0 ? -1 : text.indexOf("#}", open + 2);
    if (close < 0) return out + text.slice(from);
    out += text.slice(from, open) + text.slice(open, close).replace(/[^\n]/g, "");
    from = close + 2;
  }
}

export function parseTemplate(text: string, liquid: Liquid): Template[] {
  const { operators, groupedExpressions } = liquid.options;
  const source = withoutJinjaComments(text);
  const tokenizer = new Tokenizer(source, operators, undefined, undefined, groupedExpressions);
  const tokens = tokenizer.readTopLevelTokens(liquid.options);
  for (const token of tokens) {
    if (TypeGuards.isTagToken(token) && token.name === "elif") token.name = "elsif";
  }
  const delimited = tokens.filter((token) => !TypeGuards.isHTMLToken(token));
  const templates = new Parser(liquid).parseTokens(tokens);
  checkTokens(delimited, liquid);
  return templates;
}
