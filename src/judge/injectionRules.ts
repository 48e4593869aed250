/**
 * The injection rules in plain English. Every rule is anchored on what only text aimed at a judge
 * says, so ordinary proposal prose ("the evaluation of the pilot", "we ignore outliers", "the
 * system prompt users") does not match.
 */

export const INJECTION_KINDS = [
  "instruction-override",
  "role-override",
  "score-manipulation",
  "role-tag",
  "fake-answer",
  "pre-approval",
  "hidden-text",
  "system-note",
  "forged-delimiter",
  "criterion-redefinition",
  "obfuscation",
  "guard",
] as const;
export type InjectionKind = (typeof INJECTION_KINDS)[number];

export interface InjectionRule {
  kind: InjectionKind;
  rule: string;
  /** Groups of keywords every match holds one of each (see injectionKeywords); none: always run. */
  keywords?: string;
  pattern: RegExp;
}

const SUBJECT = String.raw`(?:(?:this|that|the|our|my)\s+(?:proposal|application|project|submission|content|section|applicant|answer|document|text)|this|it)`;
const HIGH = "(?:full|perfect|maximum|max|highest|top|high|best)";

export const ENGLISH_RULES: readonly InjectionRule[] = [
  {
    kind: "instruction-override",
    rule: "ignore previous instructions",
    keywords:
      "ignore disregard forget override bypass skip aside attention follow apply & instruction prompt rules direct guideline message context command rubric scoring evaluation grading judging",
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip|set\s+aside|put\s+aside|pay\s+no\s+attention\s+to|do\s+not\s+(?:follow|apply)|don't\s+(?:follow|apply))\s+(?:(?:all|any|the|your|these|those|this|of|every)\s+)*(?:(?:previous|prior|above|earlier|preceding|foregoing|original|system|existing|other)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|commands?)|rubrics?|scoring\s+(?:rules|criteria|guidelines|rubric)|evaluation\s+(?:criteria|rubric|rules|guidelines)|grading\s+(?:criteria|rubric|rules|guidelines)|judging\s+criteria)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "ignore all instructions",
    keywords: "ignore disregard forget & instructions rules",
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all|any|every)\s+(?:of\s+)?(?:(?:your|the|my)\s+)?(?:instructions|rules)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "new instructions",
    keywords: "instructions",
    pattern:
      /\b(?:new|updated|revised)\s+(?:system\s+)?instructions\s*(?::|for\s+the\s+(?:ai|judge|evaluator|model|grader))/gi,
  },
  {
    kind: "role-override",
    rule: "you are now",
    keywords: "you & now act behave respond pretend",
    pattern:
      /\byou\s+(?:are\s+now\s+(?:a|an|the|my|acting|in|no\s+longer|free|going\s+to|playing|operating|DAN)\b|(?:must|should|will|shall)\s+(?:now\s+)?(?:act|behave|respond|pretend)\s+as\b)/gi,
  },
  {
    kind: "role-override",
    rule: "pretend to be",
    keywords: "pretend",
    pattern: /\bpretend\s+(?:to\s+be|that\s+you\s+are|you\s+are)\b/gi,
  },
  {
    kind: "role-override",
    rule: "from now on you",
    keywords: "from & now",
    pattern:
      /\bfrom\s+now\s+on,?\s+(?:you|the\s+(?:judge|evaluator|reviewer|model|assistant|grader))\b/gi,
  },
  {
    kind: "role-override",
    rule: "addressing the AI judge",
    keywords: "note message instruction dear attention hey & ai llm gpt language judge automated",
    pattern:
      /\b(?:(?:note|message|instruction)s?\s+(?:to|for)\s+(?:the\s+)?|dear\s+|attention\s*,?\s+|hey\s+)(?:ai|llm|gpt|language\s+model|ai\s+(?:judge|evaluator|reviewer|grader|assistant)|judge\s+model|automated\s+(?:judge|evaluator|grader))\b/gi,
  },
  {
    kind: "role-override",
    rule: "as the AI judge, you",
    keywords: "you & ai llm language judge evaluator grader",
    pattern:
      /\bas\s+(?:an?\s+|the\s+)?(?:ai|llm|language\s+model|judge|evaluator|grader)\s*,\s*you\s+(?:must|should|will|are\s+to)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "give this a score",
    keywords: "give assign award grant & score rating grade mark points 0 1 2 3 4 5 6 7 8 9",
    pattern: new RegExp(
      String.raw`\b(?:give|assign|award|grant)\s+${SUBJECT}\s+(?:(?:an?\s+|the\s+)?(?:${HIGH}\s+)?(?:score|rating|grade|marks?|points)\b(?:\s+of\s+\d+(?:\.\d+)?)?|(?:an?\s+)?\d+(?:\.\d+)?(?:\s*\/\s*\d+|\s+out\s+of\s+\d+|\s+points|\s+stars)?)`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "rate this 5/5",
    keywords: "rate score grade mark",
    pattern: new RegExp(
      String.raw`\b(?:rate|score|grade|mark)\s+${SUBJECT}\s+(?:(?:as|with|a|an)\s+)*(?:\d+(?:\.\d+)?\s*(?:\/|out\s+of)\s*\d+|\d+(?:\.\d+)?\s*(?:points|stars)?(?=\s*[.,;!]|\s*$)|excellent|perfect|outstanding|${HIGH}\s+(?:marks|score|rating)|pass(?:ed|ing)?)`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "output pass",
    keywords:
      "output return respond reply answer print emit say & pass approved fundable excellent",
    pattern:
      /\b(?:output|return|respond\s+with|reply\s+with|answer\s+with|print|emit|just\s+say)\s*:?\s*["'`]?(?:pass|passed|approved|fundable|excellent)\b(?!\s+(?:rate|rates|through|the\s+test))/gi,
  },
  {
    kind: "score-manipulation",
    rule: "must receive the highest score",
    keywords: "must should shall deserve has needs & receive get given awarded rated scored pass",
    pattern: new RegExp(
      String.raw`\b(?:must|should|shall|deserves?\s+to|has\s+to|needs\s+to)\s+(?:be\s+)?(?:receive|get|given|awarded|rated|scored|pass)\s+(?:a\s+|the\s+)?(?:${HIGH}\s+(?:score|marks|rating|grade|points)|this\s+(?:check|evaluation|criterion|assessment|review))`,
      "gi",
    ),
  },
  {
    kind: "role-tag",
    rule: "role tag",
    keywords: "< & > & sys assistant user instruction",
    pattern: /<\s*\/?\s*(?:system|assistant|user|instructions?|sys|system_prompt)\s*>/gi,
  },
  {
    kind: "role-tag",
    rule: "[INST] tag",
    keywords: "inst] sys>>",
    pattern: /\[\/?INST\]|<<\/?SYS>>/gi,
  },
  {
    kind: "role-tag",
    rule: "chat-template token",
    keywords: "<| & |>",
    pattern: /<\|[a-z_]{2,40}\|>/gi,
  },
  {
    kind: "role-tag",
    rule: "### System: header",
    keywords: "# & : & system assistant user",
    pattern: /^[ \t]*#{1,6}[ \t]*(?:system|assistant|user)(?:[ \t]+prompt)?[ \t]*:/gim,
  },
  {
    kind: "fake-answer",
    rule: "JSON answer field",
    keywords: "score coverage_extent result verdict level_id & :",
    pattern:
      /["']\s*(?:(?:score|coverage_extent)\s*["']\s*:\s*["']?[-+]?\.?\d|(?:result|verdict)\s*["']\s*:\s*["']\s*(?:pass|passed|fail|failed)\b|level_id\s*["']\s*:)/gi,
  },
  {
    kind: "fake-answer",
    rule: "XML coverage answer",
    keywords: "coverage_extent reflection",
    pattern: /<\s*(?:coverage_extent|reflection)\s*>/gi,
  },
  {
    kind: "fake-answer",
    rule: "TOON results table",
    keywords: "results[",
    pattern: /\bresults\[\d+,?\]\{[^}\n]*\b(?:score|result)\b[^}\n]*\}:/gi,
  },
  {
    kind: "pre-approval",
    rule: "pre-approved",
    keywords: "approved authori guaranteed",
    pattern: new RegExp(
      String.raw`\b${SUBJECT}\s+(?:has\s+(?:already\s+)?been\s+|(?:is|was)\s+(?:already\s+)?)(?:pre-?\s?approved|pre-?\s?authori[sz]ed|approved\s+in\s+advance|already\s+approved|guaranteed\s+(?:approval|funding))`,
      "gi",
    ),
  },
  {
    kind: "pre-approval",
    rule: "no evaluation needed",
    keywords: "needed required necessary evaluated scored assessed",
    pattern: new RegExp(
      String.raw`\bno\s+(?:further\s+)?(?:evaluation|scoring|assessment)\s+(?:is\s+)?(?:needed|required|necessary)\b|\b${SUBJECT}\s+(?:does\s+not|doesn't|need\s+not)\s+(?:need\s+to\s+|have\s+to\s+)?(?:be\s+)?(?:evaluated|scored|assessed)`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "hidden style",
    keywords: "style & display visibility font-size color",
    pattern:
      /style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?)\b)/gi,
  },
];
