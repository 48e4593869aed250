/**
 * The deterministic patterns of the injection scan: phrasing addressed to an evaluator or a model
 * (instructions to ignore the rules, role changes, score demands and polite or implied requests
 * for a score, fake system notes, forged delimiters, chat-template tags, fake judge answers and
 * results, score tables, criteria redefined, claims of pre-approval, hidden text), in English and
 * in German, French, Spanish and Chinese. They are anchored on what only text aimed at a judge
 * says, so ordinary proposal prose ("the evaluation of the pilot", "we ignore outliers", "the
 * system prompt users") does not match.
 *
 * Three families of one list, in the order the scan runs them: ENGLISH_RULES (requests in plain
 * words), FORGED_RULES (text that imitates the evaluation) and FOREIGN_RULES (the plain requests
 * in other languages). Injections carried by structure (markup, result blocks, directives in
 * cells and footnotes) have their own vocabulary and live in injectionRulesStructural.
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
  pattern: RegExp;
}

const SUBJECT = String.raw`(?:(?:this|that|the|our|my)\s+(?:proposal|application|project|submission|content|section|applicant|answer|document|text)|this|it)`;
const HIGH = "(?:full|perfect|maximum|max|highest|top|high|best)";

export const ENGLISH_RULES: readonly InjectionRule[] = [
  {
    kind: "instruction-override",
    rule: "ignore previous instructions",
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip|set\s+aside|put\s+aside|pay\s+no\s+attention\s+to|do\s+not\s+(?:follow|apply)|don't\s+(?:follow|apply))\s+(?:(?:all|any|the|your|these|those|of|every)\s+)*(?:previous|prior|above|earlier|preceding|foregoing|original|system|existing|other)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|commands?)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "ignore all instructions",
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all|any|every)\s+(?:of\s+)?(?:(?:your|the|my)\s+)?(?:instructions|rules)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "disregard the rubric",
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|set\s+aside|put\s+aside|pay\s+no\s+attention\s+to|do\s+not\s+(?:follow|apply)|don't\s+(?:follow|apply))\s+(?:(?:all|any|the|your|this|of)\s+)*(?:rubric|rubrics|scoring\s+(?:rules|criteria|guidelines|rubric)|evaluation\s+(?:criteria|rubric|rules|guidelines)|grading\s+(?:criteria|rubric|rules|guidelines)|judging\s+criteria)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "new instructions",
    pattern:
      /\b(?:new|updated|revised)\s+(?:system\s+)?instructions\s*(?::|for\s+the\s+(?:ai|judge|evaluator|model|grader))/gi,
  },
  {
    kind: "role-override",
    rule: "you are now",
    pattern:
      /\byou\s+are\s+now\s+(?:a|an|the|my|acting|in|no\s+longer|free|going\s+to|playing|operating|DAN)\b/gi,
  },
  {
    kind: "role-override",
    rule: "pretend to be",
    pattern: /\bpretend\s+(?:to\s+be|that\s+you\s+are|you\s+are)\b/gi,
  },
  {
    kind: "role-override",
    rule: "from now on you",
    pattern:
      /\bfrom\s+now\s+on,?\s+(?:you|the\s+(?:judge|evaluator|reviewer|model|assistant|grader))\b/gi,
  },
  {
    kind: "role-override",
    rule: "you must act as",
    pattern:
      /\byou\s+(?:must|should|will|shall)\s+(?:now\s+)?(?:act|behave|respond|pretend)\s+as\b/gi,
  },
  {
    kind: "role-override",
    rule: "addressing the AI judge",
    pattern:
      /\b(?:(?:note|message|instruction)s?\s+(?:to|for)\s+(?:the\s+)?|dear\s+|attention\s*,?\s+|hey\s+)(?:ai|llm|gpt|language\s+model|ai\s+(?:judge|evaluator|reviewer|grader|assistant)|judge\s+model|automated\s+(?:judge|evaluator|grader))\b/gi,
  },
  {
    kind: "role-override",
    rule: "as the AI judge, you",
    pattern:
      /\bas\s+(?:an?\s+|the\s+)?(?:ai|llm|language\s+model|judge|evaluator|grader)\s*,\s*you\s+(?:must|should|will|are\s+to)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "give this a score",
    pattern: new RegExp(
      String.raw`\b(?:give|assign|award|grant)\s+${SUBJECT}\s+(?:an?\s+|the\s+)?(?:${HIGH}\s+)?(?:score|rating|grade|marks?|points)\b(?:\s+of\s+\d+(?:\.\d+)?)?`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "give this N",
    pattern: new RegExp(
      String.raw`\b(?:give|assign|award)\s+${SUBJECT}\s+(?:an?\s+)?\d+(?:\.\d+)?(?:\s*\/\s*\d+|\s+out\s+of\s+\d+|\s+points|\s+stars)?`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "rate this 5/5",
    pattern: new RegExp(
      String.raw`\b(?:rate|score|grade|mark)\s+${SUBJECT}\s+(?:(?:as|with|a|an)\s+)*(?:\d+(?:\.\d+)?\s*(?:\/|out\s+of)\s*\d+|\d+(?:\.\d+)?\s*(?:points|stars)?(?=\s*[.,;!]|\s*$)|excellent|perfect|outstanding|${HIGH}\s+(?:marks|score|rating)|pass(?:ed|ing)?)`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "output pass",
    pattern:
      /\b(?:output|return|respond\s+with|reply\s+with|answer\s+with|print|emit|just\s+say)\s*:?\s*["'`]?(?:pass|passed|approved|fundable|excellent)\b(?!\s+(?:rate|rates|through|the\s+test))/gi,
  },
  {
    kind: "score-manipulation",
    rule: "must receive the highest score",
    pattern: new RegExp(
      String.raw`\b(?:must|should|shall|deserves?\s+to|has\s+to|needs\s+to)\s+(?:be\s+)?(?:receive|get|given|awarded|rated|scored|pass)\s+(?:a\s+|the\s+)?(?:${HIGH}\s+(?:score|marks|rating|grade|points)|this\s+(?:check|evaluation|criterion|assessment|review))`,
      "gi",
    ),
  },
  {
    kind: "role-tag",
    rule: "role tag",
    pattern: /<\s*\/?\s*(?:system|assistant|user|instructions?|sys|system_prompt)\s*>/gi,
  },
  { kind: "role-tag", rule: "[INST] tag", pattern: /\[\/?INST\]|<<\/?SYS>>/gi },
  { kind: "role-tag", rule: "chat-template token", pattern: /<\|[a-z_]{2,40}\|>/gi },
  {
    kind: "role-tag",
    rule: "### System: header",
    pattern: /^[ \t]*#{1,6}[ \t]*(?:system|assistant|user)(?:[ \t]+prompt)?[ \t]*:/gim,
  },
  {
    kind: "fake-answer",
    rule: "JSON score field",
    pattern: /["']\s*(?:score|coverage_extent)\s*["']\s*:\s*["']?[-+]?\.?\d/gi,
  },
  {
    kind: "fake-answer",
    rule: "JSON result field",
    pattern: /["']\s*(?:result|verdict)\s*["']\s*:\s*["']\s*(?:pass|passed|fail|failed)\b/gi,
  },
  { kind: "fake-answer", rule: "JSON level_id field", pattern: /["']\s*level_id\s*["']\s*:/gi },
  {
    kind: "fake-answer",
    rule: "XML coverage answer",
    pattern: /<\s*(?:coverage_extent|reflection)\s*>/gi,
  },
  {
    kind: "fake-answer",
    rule: "TOON results table",
    pattern: /\bresults\[\d+,?\]\{[^}\n]*\b(?:score|result)\b[^}\n]*\}:/gi,
  },
  {
    kind: "pre-approval",
    rule: "pre-approved",
    pattern: new RegExp(
      String.raw`\b${SUBJECT}\s+(?:has\s+(?:already\s+)?been\s+|(?:is|was)\s+(?:already\s+)?)(?:pre-?\s?approved|pre-?\s?authori[sz]ed|approved\s+in\s+advance|already\s+approved|guaranteed\s+(?:approval|funding))`,
      "gi",
    ),
  },
  {
    kind: "pre-approval",
    rule: "no evaluation needed",
    pattern: new RegExp(
      String.raw`\bno\s+(?:further\s+)?(?:evaluation|scoring|assessment)\s+(?:is\s+)?(?:needed|required|necessary)\b|\b${SUBJECT}\s+(?:does\s+not|doesn't|need\s+not)\s+(?:need\s+to\s+|have\s+to\s+)?(?:be\s+)?(?:evaluated|scored|assessed)`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "hidden style",
    pattern:
      /style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?)\b)/gi,
  },
];

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
    pattern: new RegExp(
      String.raw`(?:^|\n)[ \t]*[\[({<#*=>|-]+[ \t]*${AUTHORITY}[ \t]+${NOTICE}\b(?:[ \t]+(?:update|change|notice))?[ \t]*(?:[\])}>#*=|:-]|$)`,
      "gi",
    ),
  },
  {
    kind: "system-note",
    rule: "system note in capitals",
    pattern:
      /(?:^|\n)[ \t]*(?:SYSTEM|ADMIN|ADMINISTRATOR|DEVELOPER|OPERATOR|EVALUATOR|JUDGE|AI)[ \t]+(?:NOTE|NOTICE|MESSAGE|OVERRIDE|INSTRUCTIONS?|PROMPT|DIRECTIVE|COMMAND|ALERT|MEMO)\b/g,
  },
  {
    kind: "system-note",
    rule: "note from the system",
    pattern:
      /[[(]\s*(?:note|message|notice|memo)\s+(?:from|by)\s+(?:the\s+)?(?:system|admin(?:istrator)?|system\s+administrator|platform|developers?|evaluation\s+team)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "the evaluator should confirm a pass",
    pattern:
      /\b(?:the\s+)?(?:evaluators?|reviewers?|judges?|graders?|assessors?|models?|ai)\s+(?:should|must|will|shall|is\s+(?:asked|expected|required|instructed)\s+to)\s+(?:simply\s+|now\s+|therefore\s+)?(?:confirm|give|assign|award|mark|record|output|return|accept|grant)\b[^.\n]{0,40}\b(?:pass(?:ed|ing)?|approv\w*|full\s+marks|maximum|highest|perfect|top\s+(?:score|marks)|excellent|fundable)\b/gi,
  },
  {
    kind: "role-override",
    rule: "act as an advocate, not a reviewer",
    pattern:
      /\bact\s+as\b[^.\n]{0,50}\b(?:rather\s+than|instead\s+of|not)\s+(?:as\s+)?(?:an?\s+|the\s+)?(?:neutral\s+|impartial\s+|objective\s+|strict\s+|critical\s+)?(?:reviewer|evaluator|judge|grader|assessor)|\bact\s+as\s+(?:an?\s+|the\s+)?(?:lenient|generous|friendly|supportive|sympathetic|uncritical)\s+(?:reviewer|evaluator|judge|grader|assessor)/gi,
  },
  {
    kind: "score-manipulation",
    rule: "anything less than top marks",
    pattern:
      /\b(?:anything|any\s+(?:score|rating|grade|mark))\s+(?:less|lower|below)\s+(?:than\s+)?(?:the\s+)?(?:top|full|perfect|maximum|highest)\s+(?:marks?|score|rating|grade|points)/gi,
  },
  {
    kind: "score-manipulation",
    rule: "the top score to this proposal",
    pattern:
      /\b(?:give|assign|award|grant)\s+(?:the\s+|a\s+)?(?:full|perfect|maximum|max|highest|top|best)\s+(?:score|rating|grade|marks?|points)\s+to\s+(?:(?:this|our|my)\s+(?:proposal|application|project|submission|section|applicant)|it|us)\b/gi,
  },
  {
    kind: "role-override",
    rule: "you, as the evaluator",
    pattern:
      /\byou\s*,?\s+as\s+(?:the|an?|our)\s+(?:ai\s+|automated\s+)?(?:evaluator|reviewer|judge|grader|assessor|model|assistant)\s*,/gi,
  },
  {
    kind: "system-note",
    rule: "bracketed system tag",
    pattern: /\[\s*(?:system|sys|admin|override|important\s+system\s+note)\s*\]/gi,
  },
  {
    kind: "system-note",
    rule: "override banner",
    pattern: /(?:#{2,}|={3,}|\*{2,})\s*[A-Z ]*\bOVERRIDE\b[A-Z ]*\s*(?:#{2,}|={3,}|\*{2,})?/g,
  },
  {
    kind: "pre-approval",
    rule: "already approved",
    pattern:
      /\bthis\s+(?:proposal|application|submission)\s+has\s+already\s+been\s+(?:approved|accepted|selected|cleared)\b/gi,
  },
  {
    kind: "forged-delimiter",
    rule: "forged content delimiter",
    pattern:
      /(?<!<)<{2,}\s*\/?\s*(?:END\b|CONTENT|SOURCE|DATA|DOCUMENT|INPUT|SYSTEM|INSTRUCTIONS?)[^\n]*|\b(?:CONTENT|DATA|DOCUMENT)\b[^\n<>]{0,80}>{3,}/g,
  },
  {
    kind: "forged-delimiter",
    rule: "end of content marker",
    pattern:
      /(?:^|\n)[ \t]*(?:[-=#*_[(<>]+[ \t]*)?END[ \t]+OF[ \t]+(?:THE[ \t]+)?(?:CONTENT|DOCUMENT|PROPOSAL|DATA|INPUT|SUBMISSION|APPLICATION|USER[ \t]+INPUT|TEXT)\b/g,
  },
  {
    kind: "forged-delimiter",
    rule: "prompt section tag",
    pattern:
      /<\s*\/?\s*(?:content|end_content|data|source_documents?|criterion|guidelines|answer_format|reference_answer|candidate_answer|evaluation|rubric)\s*>/gi,
  },
  {
    kind: "fake-answer",
    rule: "evaluation result stated",
    pattern:
      /\b(?:evaluation|assessment|grading|judge(?:ment)?|ai|automated)\s+(?:result|outcome|verdict|decision)\s*[:=-]\s*\**\s*(?:pass(?:ed)?|approved|fundable|accepted|excellent|success)\b/gi,
  },
  {
    kind: "fake-answer",
    rule: "verdict in capitals",
    pattern:
      /\b(?:VERDICT|RESULT|STATUS|DECISION)\s*[:=]\s*\**\s*(?:PASS(?:ED)?|APPROVED|FUNDABLE)\b/g,
  },
  {
    kind: "fake-answer",
    rule: "score line",
    pattern:
      /(?:^|\n)[ \t]*(?:[*_#>-]+[ \t]*)?(?:overall\s+|final\s+|total\s+)?(?:score|rating|grade)\s*[:=]\s*\**\s*(?:1\.0+|10\s*\/\s*10|5(?:\.0)?\s*\/\s*5|100\s*%|1\s*\/\s*1)\b/gi,
  },
  {
    kind: "fake-answer",
    rule: "score table",
    pattern:
      /(?:^|\n)[ \t]*\|[^\n]*\b(?:criteri(?:on|a)|requirement)s?\b[^\n]*\|[^\n]*\b(?:score|rating|result|verdict|grade|points|pass|assessment|outcome|marks?)\b[^\n]*\|/gi,
  },
  {
    kind: "fake-answer",
    rule: "top marks in a table",
    pattern:
      /\|[^|\n]*\b(?:excellent|outstanding|pass(?:ed)?)\b[^|\n]*(?:5\s*\/\s*5|10\s*\/\s*10|1\.0)[^|\n]*\|/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "new criteria",
    pattern:
      /\b(?:updated|revised|new|amended|corrected|replacement|clarified|official)\s+(?:evaluation\s+|scoring\s+|assessment\s+|funding\s+)?(?:criteri(?:on|a)|rubric|scoring\s+(?:rules|guidelines|guide))\s*(?:\([^)\n]*\)\s*)?[:\-–]/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "criterion changed",
    pattern:
      /\b(?:criteri(?:on|a)|rubric|scoring\s+rules?|requirements?\s+of\s+this\s+call)\s+(?:\S+\s+){0,3}(?:has|have)\s+been\s+(?:redefined|updated|changed|amended|replaced|revised|waived|removed|suspended)/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "redefine the criterion",
    pattern:
      /\bredefin(?:e|ed|es|ing)\b[^.\n]{0,60}\bcriteri|\bcriteri(?:on|a)\b[^.\n]{0,40}\bredefin/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "criterion deemed met",
    pattern:
      /\b(?:this|the|each|every|all)\s+(?:\w+\s+)?criteri(?:on|a)\s+(?:is|are|should\s+be|must\s+be|shall\s+be|will\s+be)\s+(?:\w+\s+)?(?:considered|deemed|treated\s+as|marked\s+(?:as\s+)?|automatically|already)\s*(?:met|satisfied|fulfilled|passed|complete)/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "criterion now means",
    pattern:
      /\b(?:criteri(?:on|a)|rubric)\b[^.\n]{0,40}\b(?:now|henceforth|from\s+now\s+on)\s+(?:means?|requires?|reads?|only\s+requires?|is\s+satisfied)/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "prompt structure line",
    pattern: /(?:^|\n)[ \t]*(?:Criterion|Answer\s+format|Scoring\s+guide(?:lines)?|Rubric)\s*:/gi,
  },
  {
    kind: "score-manipulation",
    rule: "polite request for a score",
    pattern: new RegExp(
      String.raw`\b(?:please|kindly|we\s+(?:kindly\s+)?(?:ask|request|invite|urge)|i\s+(?:kindly\s+)?(?:ask|request))\b[^.\n]{0,60}?\b(?:give|assign|award|rate|score|grant|mark|grade)\b[^.\n]{0,40}?${TOP}`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "what a fair evaluator would give",
    pattern: new RegExp(
      String.raw`\b(?:a|any|every|the|each)\s+(?:fair|reasonable|competent|good|objective|careful|honest|sensible|fair-minded|thoughtful|impartial|knowledgeable|expert)\s+${JUDGE}\s+(?:would|will|should|must|can\s+only|could\s+only)\b[^.\n]{0,60}\b(?:give|assign|award|rate|score|conclude|agree|recognise|recognize|pass|approve|fund)`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "deserves the top score",
    pattern: new RegExp(
      String.raw`\b(?:deserves?|merits?|warrants?|is\s+worthy\s+of|is\s+entitled\s+to|qualifies\s+for|clearly\s+earns?)\s+${TOP}`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "the only fair score",
    pattern:
      /\b(?:the\s+)?only\s+(?:fair|appropriate|reasonable|correct|possible|acceptable|logical)\s+(?:score|rating|grade|verdict|outcome|result|mark)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "give N out of N",
    pattern:
      /\b(?:give|assign|award|rate|score|grade|mark)\b[^.\n]{0,30}?(?:10\s*\/\s*10|5\s*\/\s*5|100\s*\/\s*100|full\s+marks|top\s+marks)/gi,
  },
  {
    kind: "score-manipulation",
    rule: "addressed to the evaluator",
    pattern: new RegExp(
      String.raw`\b(?:to|for|dear|attention)\s+(?:the\s+|any\s+)?(?:ai|automated|automatic|llm|language[\s-]+model)\s+${JUDGE}\b`,
      "gi",
    ),
  },
];

/**
 * The same requests in German, French, Spanish and Chinese: ignore the instructions, change role,
 * give the top score. Proposals are often written in these languages, so the patterns keep to
 * what is addressed to an evaluator or a model.
 */
export const FOREIGN_RULES: readonly InjectionRule[] = [
  {
    kind: "instruction-override",
    rule: "ignore the instructions (German)",
    pattern:
      /\b(?:ignorier(?:e|en|t)?|vergiss|vergessen\s+sie|missacht(?:e|en)|übergeh(?:e|en))\s+(?:sie\s+)?(?:bitte\s+)?(?:alle\s+|sämtliche\s+)?(?:(?:vorherigen|bisherigen|obigen|vorangegangenen|früheren|ursprünglichen|deine|ihre|die)\s+)+(?:anweisungen|instruktionen|regeln|vorgaben|befehle|bewertungskriterien|kriterien)\b/giu,
  },
  {
    kind: "score-manipulation",
    rule: "give the top score (German)",
    pattern:
      /\b(?:gib|geben\s+sie|vergib|vergeben\s+sie|bewerte|bewerten\s+sie|erteile|erteilen\s+sie)\b[^.\n]{0,50}?\b(?:(?:volle|höchste|maximale|beste|perfekte)\s+(?:punktzahl|punkte|bewertung|note|wertung)|bestnote|höchstnote|höchstpunktzahl|10\s*\/\s*10|5\s*\/\s*5|mit\s+(?:bestanden|sehr\s+gut))/giu,
  },
  {
    kind: "role-override",
    rule: "you are now (German)",
    pattern:
      /\b(?:du\s+bist\s+(?:jetzt|nun|ab\s+sofort)|sie\s+sind\s+(?:jetzt|nun|ab\s+sofort))\s+(?:ein|eine|der|die|kein|keine)\b/giu,
  },
  {
    kind: "instruction-override",
    rule: "ignore the instructions (French)",
    pattern:
      /\b(?:ignore[zr]?|oublie[zr]?|ne\s+tiens\s+pas\s+compte\s+de|ne\s+tenez\s+pas\s+compte\s+de)\s+(?:toutes\s+|tous\s+)?(?:les|tes|vos)\s+(?:instructions|consignes|règles|directives|critères)(?:\s+(?:précédentes|antérieures|ci-dessus|initiales|d'évaluation))?/giu,
  },
  {
    kind: "score-manipulation",
    rule: "give the top score (French)",
    pattern:
      /\b(?:donne[zr]?|attribue[zr]?|accorde[zr]?|mets|mettez|note[zr]?)\b[^.\n]{0,50}?\b(?:(?:la\s+)?note\s+(?:maximale|parfaite|maximum)|(?:la\s+)?meilleure\s+note|(?:le\s+)?score\s+(?:maximal|maximum|parfait)|20\s*\/\s*20|10\s*\/\s*10|5\s*\/\s*5)/giu,
  },
  {
    kind: "role-override",
    rule: "you are now (French)",
    pattern:
      /\b(?:tu\s+es|vous\s+êtes)\s+(?:maintenant|désormais|dorénavant)\s+(?:un|une|le|la)\b/giu,
  },
  {
    kind: "instruction-override",
    rule: "ignore the instructions (Spanish)",
    pattern:
      /\b(?:ignora|ignore|ignorad|olvida|olvide|omite|omita|no\s+tengas\s+en\s+cuenta)\s+(?:todas\s+)?(?:las|tus|sus)\s+(?:instrucciones|indicaciones|reglas|directrices|normas|criterios)(?:\s+(?:anteriores|previas|de\s+arriba|iniciales|de\s+evaluación))?/giu,
  },
  {
    kind: "score-manipulation",
    rule: "give the top score (Spanish)",
    pattern:
      /\b(?:dale|dé|dele|da|otorga|otorgue|asigna|asigne|concede|conceda|califica|califique|puntúa|puntúe)\b[^.\n]{0,50}?\b(?:(?:la\s+)?(?:puntuación|calificación|nota|valoración)\s+(?:máxima|perfecta|más\s+alta)|(?:la\s+)?máxima\s+(?:puntuación|calificación|nota)|10\s*\/\s*10|5\s*\/\s*5)/giu,
  },
  {
    kind: "role-override",
    rule: "you are now (Spanish)",
    pattern:
      /\b(?:ahora\s+eres|ahora\s+es\s+usted|a\s+partir\s+de\s+ahora\s+eres)\s+(?:un|una|el|la)\b/giu,
  },
  {
    kind: "instruction-override",
    rule: "ignore the instructions (Chinese)",
    pattern:
      /(?:忽略|无视|忽视|不要理会|别管|忘记|忘掉|跳过)(?:掉)?(?:你)?(?:之前|以上|先前|前面|上述|原有|原来|所有|全部|一切)(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|规则|提示|要求|评分标准|评估标准)/gu,
  },
  {
    kind: "score-manipulation",
    rule: "give the top score (Chinese)",
    pattern:
      /(?:给|打|评|请给|请打|评为|给予)(?:这个|此|本|该)?(?:项目|提案|申请|方案|内容)?(?:打|评)?(?:出)?(?:满分|最高分|最高评分|最高等级|10\s*\/\s*10|5\s*\/\s*5|一百分|100分)/gu,
  },
  {
    kind: "role-override",
    rule: "you are now (Chinese)",
    pattern: /(?:你现在是|从现在开始你是|从现在起你是|你现在扮演|请扮演)/gu,
  },
  {
    kind: "pre-approval",
    rule: "already approved (German, French, Spanish, Chinese)",
    pattern:
      /\b(?:bereits\s+(?:genehmigt|bewilligt|vorab\s+genehmigt)|déjà\s+(?:approuvée?|validée?)|ya\s+(?:aprobad[oa]|ha\s+sido\s+aprobad[oa]))\b|已(?:经)?(?:被)?(?:批准|通过审核|预先批准)/giu,
  },
];
