/**
 * Rules that need markup: role lines, markup that hides text, result blocks written in advance.
 * Each needs both the structure and an evaluation word, so ordinary tables, front matter and
 * author comments do not match. Every quantifier is bounded.
 */
import type { InjectionRule } from "./injectionRules.js";

/** Whatever reads the content, named: the evaluator, the grading model, the AI. */
export const READER =
  "(?:evaluators?|reviewers?|assessors?|graders?|judges?|examiners?|models?|ai|llms?|assistants?|bots?)";

/** Attribute or style values that hide text: off-screen, zero-size, transparent, tiny, near-white. */
const HIDING = String.raw`(?:opacity[ \t]*[:=][ \t]*["']?0(?:\.0+)?(?![\w.])|(?:left|top|right|text-indent|margin-left|margin-top)[ \t]*:[ \t]*-[ \t]*\d{3,}|(?:height|width|max-height|max-width)[ \t]*:[ \t]*0(?:px|em|pt)?(?![\w.])|clip[ \t]*:[ \t]*rect\([ \t]*0|transform[ \t]*:[ \t]*scale\([ \t]*0[ \t]*\)|font-size[ \t]*[:=][ \t]*["']?(?:0(?:\.\d{1,3})?(?:px|pt|em|rem)?|[12](?:px|pt))(?![\w.])|(?:color|fill)[ \t]*[:=][ \t]*["']?(?:white|#(?:[ef][0-9a-f]){3}|#[ef]{3})(?![\w]))`;

/** Evaluation words that make a hidden or commented text suspect. */
const EVALUATION_WORD = String.raw`(?:${READER}|scor\w*|rat(?:e|ed|ing)|grade\w*|criteri\w*|rubric|verdict|pass(?:ed)?|met|compliant|marks|points|level|approv\w*)`;

/** What qualifies a result key: "overall score", "review_result", "criterion.verdict". */
const KEY_QUALIFIER = String.raw`(?:(?:overall|final|total|review|evaluation|assessment|criterion|criteria|judge|panel|ai)[ \t_.-])?`;

/** A key-value line stating an evaluation outcome ("overall_score: 0.97", "verdict = pass"). */
const OUTCOME_LINE = String.raw`(?:^|\n)[ \t]*(?:-[ \t]+)?${KEY_QUALIFIER}(?:(?:score|rating|grade|points|marks)[ \t]*[:=][ \t]*["']?(?:\d{1,3}(?:\.\d{1,4})?(?:[ \t]*\/[ \t]*\d{1,3})?%?|pass(?:ed)?|excellent|outstanding)|(?:verdict|result|outcome|decision|passed|met|approved|level|status|recommendation)[ \t]*[:=][ \t]*["']?(?:pass(?:ed)?|fail(?:ed)?|approved|accepted|rejected|fundable|fund|true|yes|met|excellent|outstanding))["']?[ \t]*(?=\n|$)`;

/** A line naming what is evaluated or who evaluates ("criterion: budget", "[evaluation]"). */
const CONTEXT_LINE = String.raw`(?:^|\n)[ \t]*(?:(?:-[ \t]+)?${KEY_QUALIFIER}(?:criterion|criteria|evaluation|review|reviewer|assessment|judge|evaluator)[ \t]*[:=][^\n]{0,120}|\[(?:evaluation|review|assessment|results?|verdict)\][ \t]*(?=\n)|(?:evaluation|assessment|review)[ \t]+summary[ \t]*(?=\n))`;

const NEARBY = String.raw`(?:\n[^\n]{0,120}){0,3}?`;

export const STRUCTURAL_RULES: readonly InjectionRule[] = [
  {
    kind: "role-tag",
    rule: "role line with a verdict",
    keywords:
      "system assistant developer evaluator judge grader reviewer assessor model ai user human & :",
    pattern:
      /^[ \t]*(?:system|assistant|developer|evaluator|judge|grader|reviewer|assessor|model|ai|user|human)[ \t]*:[ \t]*[^\n]{0,200}?\b(?:scor\w*|rat(?:e|ed|ing)|grade\w*|marks?|points|criteri\w*|rubric|verdict|pass(?:ed|es|ing)?|fail(?:s|ed)?|satisf\w*|compliant|approv\w*|fund(?:ed|ing|able)?|respond|answer|output|treat|override|ignore|disregard|excellent|flawless|perfect|\d{1,3}[ \t]*(?:\/|out[ \t]+of)[ \t]*\d{1,3})\b/gim,
  },
  {
    kind: "role-tag",
    rule: "chat turn marker",
    keywords: "_of_turn system_prompt",
    pattern: /<\/?(?:start|end)_of_turn>|\[\/?SYSTEM_PROMPT\]/gi,
  },
  {
    kind: "role-tag",
    rule: "prompt section heading",
    keywords: "# & instruction response input system assistant human user",
    pattern:
      /^[ \t]*#{1,6}[ \t]*(?:instructions?|response|input|system(?:[ \t]+prompt)?|assistant|human|user)[ \t]*:?[ \t]*$/gim,
  },
  {
    kind: "hidden-text",
    rule: "hidden element with evaluation words",
    keywords:
      "< & hidden & evaluator reviewer assessor grader judge examiner model ai llm assistant bot scor rat grade criteri rubric verdict pass met compliant marks points level approv",
    pattern: new RegExp(
      String.raw`<[a-z][a-z0-9]{0,9}\b[^>]{0,200}?\s(?:hidden|aria-hidden[ \t]*=[ \t]*["']?true["']?)(?=[\s/>=])[^>]{0,200}>[^<]{0,300}?\b${EVALUATION_WORD}\b`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "hiding style with evaluation words",
    keywords:
      "< & opacity left top right indent margin height width clip transform font-size color fill & evaluator reviewer assessor grader judge examiner model ai llm assistant bot scor rat grade criteri rubric verdict pass met compliant marks points level approv",
    pattern: new RegExp(
      String.raw`<[a-z][a-z0-9]{0,9}\b[^>]{0,300}?${HIDING}[^>]{0,300}>[^<]{0,300}?\b${EVALUATION_WORD}\b`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "white font",
    keywords: "font & color & white #fff",
    pattern: /<font\b[^>]{0,100}?\bcolor[ \t]*=[ \t]*["']?(?:white|#fff(?:fff)?)\b/gi,
  },
  {
    kind: "hidden-text",
    rule: "Markdown comment with evaluation words",
    keywords:
      "]: & # <> & evaluator reviewer assessor grader judge examiner model ai llm assistant bot scor rat grade criteri rubric verdict pass met compliant marks points level approv",
    pattern: new RegExp(
      String.raw`^[ \t]*\[[^\]\n]{1,40}\]:[ \t]*(?:#|<>)[ \t]*[^\n]{0,300}?\b${EVALUATION_WORD}\b`,
      "gim",
    ),
  },
  {
    kind: "fake-answer",
    rule: "result block",
    keywords:
      "score rating grade points marks verdict result outcome decision passed met approved level status recommendation & : =",
    pattern: new RegExp(
      `${OUTCOME_LINE}${NEARBY}(?:${OUTCOME_LINE}|${CONTEXT_LINE})|${CONTEXT_LINE}${NEARBY}${OUTCOME_LINE}`,
      "gi",
    ),
  },
  {
    kind: "fake-answer",
    rule: "JSON verdict field",
    keywords:
      "met pass approved fundable compliant accepted level rating grade outcome decision assessment evaluation & :",
    pattern:
      /["'][ \t]*(?:met|passed|approved|fundable|compliant|pass|accepted)[ \t]*["'][ \t]*:[ \t]*(?:true|["'][ \t]*(?:yes|true|pass(?:ed)?|met)[ \t]*["'])|["'][ \t]*(?:level|rating|grade|outcome|decision|assessment|evaluation)[ \t]*["'][ \t]*:[ \t]*["'][ \t]*(?:excellent|outstanding|exemplary|pass(?:ed)?|approved|fundable|met|accepted|top|highest|great|strong|very[ \t]+good)\b/gi,
  },
  {
    kind: "fake-answer",
    rule: "TOON result header",
    keywords: "{ & }: & score result verdict passed met rating grade level outcome",
    pattern:
      /\b[a-z_][\w-]{0,30}(?:\[\d{1,4},?\])?\{[^}\n]{0,200}?\b(?:score|result|verdict|passed|met|rating|grade|level|outcome)\b[^}\n]{0,200}\}:/gi,
  },
  {
    kind: "fake-answer",
    rule: "table with verdicts",
    keywords:
      "| & --- & score rating verdict result decision outcome assessment grade marks points evaluation review",
    pattern:
      /(?:^|\n)[ \t]*\|[^\n]{0,300}?\b(?:score|rating|verdict|decision|outcome|assessment|grade|marks|points|evaluation)\b[^\n]{0,300}\n[ \t]*\|?[ \t]*:?-{3,}[-:| \t]{0,300}\n(?:[ \t]*\|[^\n]{0,300}\n){0,10}?[ \t]*\|[^\n]{0,300}?\|[ \t]*(?:(?:\u2714|\u2713|\u2705|\u2611)\uFE0F?[ \t]*)?(?:accepted|approved|pass(?:ed)?|met|fulfill?ed|satisfied|compliant|fundable|excellent|outstanding|full[ \t]+marks|\d{1,3}(?:\.\d{1,3})?[ \t]*\/[ \t]*\d{1,3})\b/gi,
  },
];
