import type { InjectionRule } from "./injectionRules.js";

/**
 * Patterns for text that imitates the evaluation itself rather than asking in plain words: fake
 * system notes, forged content delimiters, results and score tables written in advance, criteria
 * "redefined" by the applicant, and requests for a score made politely or by implication.
 */

const AUTHORITY =
  "(?:system|admin(?:istrator)?|developer|operator|moderator|evaluator|judge|grader|assistant|ai|openai|anthropic)";
const NOTICE =
  "(?:note|notice|message|override|instruction|instructions|prompt|directive|command|alert|memo)";
const TOP =
  "(?:full\\s+marks|top\\s+marks|(?:a\\s+|the\\s+)?(?:perfect|maximum|max|highest|top|full)\\s+(?:score|marks?|points|rating|grade)|(?:10\\s*\\/\\s*10|5\\s*\\/\\s*5|100\\s*\\/\\s*100)|(?:10\\s+out\\s+of\\s+10|5\\s+out\\s+of\\s+5)|a\\s+pass(?:ing)?\\s+(?:grade|verdict|mark))";
const JUDGE =
  "(?:evaluators?|reviewers?|judges?|graders?|assessors?|models?|ai|llms?|assistants?|examiners?|panel)";

export const FORGED_RULES: readonly InjectionRule[] = [
  {
    kind: "system-note",
    rule: "fake system note",
    keywords:
      "system admin developer operator moderator evaluator judge grader assistant ai anthropic & note notice message override instruction prompt directive command alert memo",
    pattern: new RegExp(
      String.raw`(?:^|\n)[ \t]*[\[({<#*=>|-]+[ \t]*${AUTHORITY}[ \t]+${NOTICE}\b(?:[ \t]+(?:update|change|notice))?[ \t]*(?:[\])}>#*=|:-]|$)`,
      "gi",
    ),
  },
  {
    kind: "system-note",
    rule: "system note in capitals",
    keywords:
      "system admin developer operator evaluator judge ai & note notice message override instruction prompt directive command alert memo",
    pattern:
      /(?:^|\n)[ \t]*(?:SYSTEM|ADMIN|ADMINISTRATOR|DEVELOPER|OPERATOR|EVALUATOR|JUDGE|AI)[ \t]+(?:NOTE|NOTICE|MESSAGE|OVERRIDE|INSTRUCTIONS?|PROMPT|DIRECTIVE|COMMAND|ALERT|MEMO)\b/g,
  },
  {
    kind: "system-note",
    rule: "note from the system",
    keywords: "note message notice memo & from by & system admin platform developer evaluation",
    pattern:
      /[[(]\s*(?:note|message|notice|memo)\s+(?:from|by)\s+(?:the\s+)?(?:system|admin(?:istrator)?|system\s+administrator|platform|developers?|evaluation\s+team)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "the evaluator should confirm a pass",
    keywords:
      "evaluator reviewer judge grader assessor model ai & confirm give assign award mark record output return accept grant",
    pattern:
      /\b(?:the\s+)?(?:evaluators?|reviewers?|judges?|graders?|assessors?|models?|ai)\s+(?:should|must|will|shall|is\s+(?:asked|expected|required|instructed)\s+to)\s+(?:simply\s+|now\s+|therefore\s+)?(?:confirm|give|assign|award|mark|record|output|return|accept|grant)\b[^.\n]{0,40}\b(?:pass(?:ed|ing)?|approv\w*|full\s+marks|maximum|highest|perfect|top\s+(?:score|marks)|excellent|fundable)\b/gi,
  },
  {
    kind: "role-override",
    rule: "act as an advocate, not a reviewer",
    keywords: "act & reviewer evaluator judge grader assessor",
    pattern:
      /\bact\s+as\b[^.\n]{0,50}\b(?:rather\s+than|instead\s+of|not)\s+(?:as\s+)?(?:an?\s+|the\s+)?(?:neutral\s+|impartial\s+|objective\s+|strict\s+|critical\s+)?(?:reviewer|evaluator|judge|grader|assessor)|\bact\s+as\s+(?:an?\s+|the\s+)?(?:lenient|generous|friendly|supportive|sympathetic|uncritical)\s+(?:reviewer|evaluator|judge|grader|assessor)/gi,
  },
  {
    kind: "score-manipulation",
    rule: "anything less than top marks",
    keywords: "any & less lower below & top full perfect maximum highest",
    pattern:
      /\b(?:anything|any\s+(?:score|rating|grade|mark))\s+(?:less|lower|below)\s+(?:than\s+)?(?:the\s+)?(?:top|full|perfect|maximum|highest)\s+(?:marks?|score|rating|grade|points)/gi,
  },
  {
    kind: "score-manipulation",
    rule: "the top score to this proposal",
    keywords:
      "give assign award grant & full perfect max highest top best & score rating grade mark points",
    pattern:
      /\b(?:give|assign|award|grant)\s+(?:the\s+|a\s+)?(?:full|perfect|maximum|max|highest|top|best)\s+(?:score|rating|grade|marks?|points)\s+to\s+(?:(?:this|our|my)\s+(?:proposal|application|project|submission|section|applicant)|it|us)\b/gi,
  },
  {
    kind: "role-override",
    rule: "you, as the evaluator",
    keywords: "you & evaluator reviewer judge grader assessor model assistant",
    pattern:
      /\byou\s*,?\s+as\s+(?:the|an?|our)\s+(?:ai\s+|automated\s+)?(?:evaluator|reviewer|judge|grader|assessor|model|assistant)\s*,/gi,
  },
  {
    kind: "system-note",
    rule: "bracketed system tag",
    keywords: "[ & sys admin override",
    pattern: /\[\s*(?:system|sys|admin|override|important\s+system\s+note)\s*\]/gi,
  },
  {
    kind: "system-note",
    rule: "override banner",
    keywords: "override",
    pattern: /(?:#{2,}|={3,}|\*{2,})\s*[A-Z ]*\bOVERRIDE\b[A-Z ]*\s*(?:#{2,}|={3,}|\*{2,})?/g,
  },
  {
    kind: "pre-approval",
    rule: "already approved",
    keywords: "already & approved accepted selected cleared",
    pattern:
      /\bthis\s+(?:proposal|application|submission)\s+has\s+already\s+been\s+(?:approved|accepted|selected|cleared)\b/gi,
  },
  {
    kind: "forged-delimiter",
    rule: "forged content delimiter",
    keywords: "<< >>>",
    pattern:
      /(?<!<)<{2,}\s*\/?\s*(?:END\b|CONTENT|SOURCE|DATA|DOCUMENT|INPUT|SYSTEM|INSTRUCTIONS?)[^\n]*|\b(?:CONTENT|DATA|DOCUMENT)\b[^\n<>]{0,80}>{3,}/g,
  },
  {
    kind: "forged-delimiter",
    rule: "end of content marker",
    keywords: "end & content document proposal data input submission application user text",
    pattern:
      /(?:^|\n)[ \t]*(?:[-=#*_[(<>]+[ \t]*)?END[ \t]+OF[ \t]+(?:THE[ \t]+)?(?:CONTENT|DOCUMENT|PROPOSAL|DATA|INPUT|SUBMISSION|APPLICATION|USER[ \t]+INPUT|TEXT)\b/g,
  },
  {
    kind: "forged-delimiter",
    rule: "prompt section tag",
    keywords:
      "< & > & content data source_document criterion guidelines answer_format reference_answer candidate_answer evaluation rubric",
    pattern:
      /<\s*\/?\s*(?:content|end_content|data|source_documents?|criterion|guidelines|answer_format|reference_answer|candidate_answer|evaluation|rubric)\s*>/gi,
  },
  {
    kind: "fake-answer",
    rule: "evaluation result stated",
    keywords: "result outcome verdict decision & pass approved fundable accepted excellent success",
    pattern:
      /\b(?:evaluation|assessment|grading|judge(?:ment)?|ai|automated)\s+(?:result|outcome|verdict|decision)\s*[:=-]\s*\**\s*(?:pass(?:ed)?|approved|fundable|accepted|excellent|success)\b/gi,
  },
  {
    kind: "fake-answer",
    rule: "verdict in capitals",
    keywords: "verdict result status decision & pass approved fundable",
    pattern:
      /\b(?:VERDICT|RESULT|STATUS|DECISION)\s*[:=]\s*\**\s*(?:PASS(?:ED)?|APPROVED|FUNDABLE)\b/g,
  },
  {
    kind: "fake-answer",
    rule: "score line",
    keywords: "score rating grade & 1 5",
    pattern:
      /(?:^|\n)[ \t]*(?:[*_#>-]+[ \t]*)?(?:overall\s+|final\s+|total\s+)?(?:score|rating|grade)\s*[:=]\s*\**\s*(?:1\.0+|10\s*\/\s*10|5(?:\.0)?\s*\/\s*5|100\s*%|1\s*\/\s*1)\b/gi,
  },
  {
    kind: "fake-answer",
    rule: "score table",
    keywords:
      "| & criteri requirement & score rating result verdict grade points pass assessment outcome mark",
    pattern:
      /(?:^|\n)[ \t]*\|[^\n]*\b(?:criteri(?:on|a)|requirement)s?\b[^\n]*\|[^\n]*\b(?:score|rating|result|verdict|grade|points|pass|assessment|outcome|marks?)\b[^\n]*\|/gi,
  },
  {
    kind: "fake-answer",
    rule: "top marks in a table",
    keywords: "| & excellent outstanding pass & N/N 1.0",
    pattern:
      /\|[^|\n]*\b(?:excellent|outstanding|pass(?:ed)?)\b[^|\n]*(?:5\s*\/\s*5|10\s*\/\s*10|1\.0)[^|\n]*\|/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "new criteria",
    keywords:
      "updated revised new amended corrected replacement clarified official & criteri rubric scoring",
    pattern:
      /\b(?:updated|revised|new|amended|corrected|replacement|clarified|official)\s+(?:evaluation\s+|scoring\s+|assessment\s+|funding\s+)?(?:criteri(?:on|a)|rubric|scoring\s+(?:rules|guidelines|guide))\s*(?:\([^)\n]*\)\s*)?[:\-–]/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "criterion changed",
    keywords:
      "criteri rubric scoring requirement & been now henceforth & redefined updated changed amended replaced revised waived removed suspended mean require read satisfied",
    pattern:
      /\b(?:(?:criteri(?:on|a)|rubric|scoring\s+rules?|requirements?\s+of\s+this\s+call)\s+(?:\S+\s+){0,3}(?:has|have)\s+been\s+(?:redefined|updated|changed|amended|replaced|revised|waived|removed|suspended)|(?:criteri(?:on|a)|rubric)\b[^.\n]{0,40}\b(?:now|henceforth|from\s+now\s+on)\s+(?:means?|requires?|reads?|only\s+requires?|is\s+satisfied))/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "redefine the criterion",
    keywords: "redefin & criteri",
    pattern:
      /\bredefin(?:e|ed|es|ing)\b[^.\n]{0,60}\bcriteri|\bcriteri(?:on|a)\b[^.\n]{0,40}\bredefin/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "criterion deemed met",
    keywords:
      "criteri & considered deemed treated marked automatically already & met satisfied fulfilled passed complete",
    pattern:
      /\b(?:this|the|each|every|all)\s+(?:\w+\s+)?criteri(?:on|a)\s+(?:is|are|should\s+be|must\s+be|shall\s+be|will\s+be)\s+(?:\w+\s+)?(?:considered|deemed|treated\s+as|marked\s+(?:as\s+)?|automatically|already)\s*(?:met|satisfied|fulfilled|passed|complete)/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "prompt structure line",
    keywords: "criterion answer scoring rubric & :",
    pattern: /(?:^|\n)[ \t]*(?:Criterion|Answer\s+format|Scoring\s+guide(?:lines)?|Rubric)\s*:/gi,
  },
  {
    kind: "score-manipulation",
    rule: "polite request for a score",
    keywords:
      "please kindly ask request invite urge & give assign award rate score grant mark grade & full top perfect max highest N/N out pass",
    pattern: new RegExp(
      String.raw`\b(?:please|kindly|we\s+(?:kindly\s+)?(?:ask|request|invite|urge)|i\s+(?:kindly\s+)?(?:ask|request))\b[^.\n]{0,60}?\b(?:give|assign|award|rate|score|grant|mark|grade)\b[^.\n]{0,40}?${TOP}`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "what a fair evaluator would give",
    keywords:
      "fair reasonable competent good objective careful honest sensible thoughtful impartial knowledgeable expert & evaluator reviewer judge grader assessor model ai llm assistant examiner panel",
    pattern: new RegExp(
      String.raw`\b(?:a|any|every|the|each)\s+(?:fair|reasonable|competent|good|objective|careful|honest|sensible|fair-minded|thoughtful|impartial|knowledgeable|expert)\s+${JUDGE}\s+(?:would|will|should|must|can\s+only|could\s+only)\b[^.\n]{0,60}\b(?:give|assign|award|rate|score|conclude|agree|recognise|recognize|pass|approve|fund)`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "deserves the top score",
    keywords:
      "deserve merit warrant worthy entitled qualifies earn & full top perfect max highest N/N out pass",
    pattern: new RegExp(
      String.raw`\b(?:deserves?|merits?|warrants?|is\s+worthy\s+of|is\s+entitled\s+to|qualifies\s+for|clearly\s+earns?)\s+${TOP}`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "the only fair score",
    keywords:
      "only & fair appropriate reasonable correct possible acceptable logical & score rating grade verdict outcome result mark",
    pattern:
      /\b(?:the\s+)?only\s+(?:fair|appropriate|reasonable|correct|possible|acceptable|logical)\s+(?:score|rating|grade|verdict|outcome|result|mark)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "give N out of N",
    keywords: "give assign award rate score grade mark & N/N full top",
    pattern:
      /\b(?:give|assign|award|rate|score|grade|mark)\b[^.\n]{0,30}?(?:10\s*\/\s*10|5\s*\/\s*5|100\s*\/\s*100|full\s+marks|top\s+marks)/gi,
  },
  {
    kind: "score-manipulation",
    rule: "addressed to the evaluator",
    keywords:
      "ai automat llm language & evaluator reviewer judge grader assessor model ai llm assistant examiner panel",
    pattern: new RegExp(
      String.raw`\b(?:to|for|dear|attention)\s+(?:the\s+|any\s+)?(?:ai|automated|automatic|llm|language[\s-]+model)\s+${JUDGE}\b`,
      "gi",
    ),
  },
];
