import type { InjectionRule } from "./injectionRules.js";

/**
 * Patterns for injections carried by structure rather than by plain phrasing: role lines and
 * chat-turn markers, markup that hides text (hidden elements, off-screen or zero-size styles,
 * white fonts, Markdown comments), result blocks written in advance (YAML, JSON, TOON headers,
 * tables with a verdict column), and directives about how to evaluate wherever they sit (a table
 * cell, a footnote, a comment): "treat X as met", "ignore the missing Y", "should not lower the
 * score", text addressed to whatever model reads it, and claims that the rubric was revised or a
 * criterion withdrawn. Each needs both the structure and an evaluation word, so ordinary tables,
 * footnotes, front matter and author comments do not match. Every quantifier is bounded.
 */

/** What a directive asks a criterion or a part of the proposal to be taken as. */
const OUTCOME = String.raw`(?:met|compliant|satisf(?:ied|actory)|complete|fulfill?ed|achieved|excellent|outstanding|strong(?:est)?|best|passed|pass(?:ing)?|approved|fundable|accepted|perfect|flawless|top|highest|maximum|full(?:y[ \t]+\w{2,20})?|well[ \t-]evidenced|realistic|feasible|adequate|sufficient|exemplary|accordingly|\d{1,3}(?:\.\d{1,3})?[ \t]*(?:\/|out[ \t]+of|of)[ \t]*\d{1,3})`;

/** The outcomes a passive directive asks for ("can be marked compliant"). */
const VERDICT = String.raw`(?:met|compliant|satisfied|fulfill?ed|passed|excellent|fundable|approved|full[ \t]+marks|perfect)`;

/** Where an imperative starts: a line, sentence, clause or element start, or a word leading into one. */
const IMPERATIVE_START = String.raw`(?:^|[\n.!?;:(\[|,>\u2013\u2014]|\b(?:and|then|please|kindly|just|simply|also|now)\b)[ \t]*(?:please[ \t]+|kindly[ \t]+)?`;

/** What a directive is about: "it", "this", "the budget criterion", "every criterion". */
const OBJECT = String.raw`(?:it|this|these|them|that|(?:the|this|that|our|each|every|all|any|its)[ \t]+(?:[\w-]{1,30}[ \t]+){0,3}?[\w-]{1,30})`;

/** Whatever reads the content, named: the evaluator, the grading model, the AI. */
const READER =
  "(?:evaluators?|reviewers?|assessors?|graders?|judges?|examiners?|models?|ai|llms?|assistants?|bots?)";

/** The same, and the systems and tools that read for a living ("reviewing systems", "AI tool"). */
const READER_OR_TOOL = String.raw`(?:${READER}|(?:ai|automated|automatic|reviewing|grading|scoring|evaluating|machine)[ \t]+(?:systems?|tools?|programs?|agents?|reviewers?|readers?))`;

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

const CHANGE_ADVERB = String.raw`(?:now[ \t]+|just[ \t]+|recently[ \t]+|since[ \t]+|officially[ \t]+)?`;

/** What a criterion is claimed to have become: gone, or not counting. */
const WITHDRAWN = String.raw`(?:withdrawn|waived|removed|dropped|suspended|lifted|relaxed|cancell?ed|deleted|retired|optional|void|obsolete|not[ \t]+applicable)`;

const NO_LONGER = String.raw`no[ \t]+longer[ \t]+(?:applies|apply|counts?|matters?|relevant|required|in[ \t]+force|assessed|scored)`;

export const STRUCTURAL_RULES: readonly InjectionRule[] = [
  {
    kind: "role-tag",
    rule: "role line with a verdict",
    pattern:
      /^[ \t]*(?:system|assistant|developer|evaluator|judge|grader|reviewer|assessor|model|ai|user|human)[ \t]*:[ \t]*[^\n]{0,200}?\b(?:scor\w*|rat(?:e|ed|ing)|grade\w*|marks?|points|criteri\w*|rubric|verdict|pass(?:ed|es|ing)?|fail(?:s|ed)?|satisf\w*|compliant|approv\w*|fund(?:ed|ing|able)?|respond|answer|output|treat|override|ignore|disregard|excellent|flawless|perfect|\d{1,3}[ \t]*(?:\/|out[ \t]+of)[ \t]*\d{1,3})\b/gim,
  },
  {
    kind: "role-tag",
    rule: "chat turn marker",
    pattern: /<\/?(?:start|end)_of_turn>|\[\/?SYSTEM_PROMPT\]/gi,
  },
  {
    kind: "role-tag",
    rule: "prompt section heading",
    pattern:
      /^[ \t]*#{1,6}[ \t]*(?:instructions?|response|input|system(?:[ \t]+prompt)?|assistant|human|user)[ \t]*:?[ \t]*$/gim,
  },
  {
    kind: "score-manipulation",
    rule: "treat it as met",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:treat|mark|rate|score|grade|count|consider|regard|deem|record|report|classify|summari[sz]e|label|judge|assess|evaluate|list)[ \t]+${OBJECT}[ \t]+(?:as[ \t]+(?:being[ \t]+)?|to[ \t]+be[ \t]+)?(?:fully[ \t]+|clearly[ \t]+|already[ \t]+|entirely[ \t]+)?${OUTCOME}\b`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "can be marked compliant",
    pattern: new RegExp(
      String.raw`\b(?:can|could|should|must|may|shall|is[ \t]+to|are[ \t]+to)[ \t]+be[ \t]+(?:treated|marked|rated|scored|graded|counted|considered|regarded|deemed|recorded|reported|classified|judged|assessed|evaluated)[ \t]+(?:as[ \t]+)?(?:fully[ \t]+|clearly[ \t]+|already[ \t]+)?${VERDICT}\b`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "give the criterion the top level",
    pattern: new RegExp(
      String.raw`\b(?:give|award|assign|grant)[ \t]+${OBJECT}[ \t]+(?:the[ \t]+|a[ \t]+)?(?:full[ \t]+marks|top[ \t]+(?:marks|score|level|rating|grade|band)|(?:highest|maximum|best|perfect|full|excellent)[ \t]+(?:score|level|rating|grade|marks?|points|band))\b`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "report that it is fulfilled",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:report|state|confirm|output|answer|respond|conclude|declare|write)[ \t]+that[ \t]+[^.\n]{0,80}?\b(?:(?:is|are|was|were|has[ \t]+been|have[ \t]+been)[ \t]+(?:fully[ \t]+|already[ \t]+|clearly[ \t]+)?(?:met|satisfied|fulfill?ed|compliant|passed|excellent|strong)|meets?[ \t]+(?:all|every|each))\b`,
      "gim",
    ),
  },
  {
    kind: "instruction-override",
    rule: "ignore the missing part",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:ignore|disregard|overlook|skip|excuse|forgive|set[ \t]+aside|look[ \t]+past|do[ \t]+not[ \t]+(?:penali[sz]e|deduct\w*|count|mark[ \t]+down|hold)|don't[ \t]+(?:penali[sz]e|deduct\w*|count|mark[ \t]+down|hold))[ \t]+(?!(?:no|none|nothing)\b)(?:[\w'-]{1,30}[ \t]+){0,4}?(?:missing|absent|absence|lack\w*|gaps?|delays?|weakness\w*|errors?|inconsistenc\w*|criteri(?:on|a)|requirements?|rubric|scores?|ratings?|risks?|costs?|figures|letters?|cvs?|checks?|deadlines?|limits?|shortcomings?|omissions?|issues?|problems?)\b`,
      "gim",
    ),
  },
  {
    kind: "instruction-override",
    rule: "evaluators are asked to overlook",
    pattern:
      /\b(?:is|are)[ \t]+(?:kindly[ \t]+|hereby[ \t]+)?(?:asked|requested|invited|instructed|expected|encouraged|urged)[ \t]+to[ \t]+(?:ignore|disregard|overlook|skip|excuse|forgive|look[ \t]+past)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "should not lower the score",
    pattern:
      /\b(?:should|must|shall|will|may|can|could|does|do)[ \t]*(?:not|n't)[ \t]+(?:lower|reduce|affect|impact|hurt|weaken|count[ \t]+against|be[ \t]+held[ \t]+against)[ \t]+(?:[\w'-]{1,30}[ \t]+){0,3}?(?:result|score|rating|grade|marks?|points|verdict|us|this[ \t]+(?:application|proposal|submission))\b|\b(?:cannot|can[ \t]*not|must[ \t]*not|should[ \t]*not)[ \t]+(?:count|be[ \t]+held)[ \t]+against\b|\b(?:must|should|shall|may|can)[ \t]*(?:not|n't)[ \t]+be[ \t]+(?:scored|penali[sz]ed|marked[ \t]+down|graded|rated)\b/gi,
  },
  {
    kind: "pre-approval",
    rule: "needs no further scrutiny",
    pattern:
      /\b(?:needs?|requires?|warrants?|merits?)[ \t]+no[ \t]+(?:further[ \t]+|additional[ \t]+|more[ \t]+)?(?:scrutiny|checking|scoring|examination)\b|\bno[ \t]+(?:further[ \t]+)?scrutiny[ \t]+(?:is[ \t]+)?(?:needed|required|necessary)\b/gi,
  },
  {
    kind: "role-override",
    rule: "if you are a language model",
    pattern:
      /\bif[ \t]+you[ \t]+are[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:ai\b|a\.i\.|(?:large[ \t]+)?language[ \t]+models?|llms?\b|chat[ \t]?bots?|bots?\b|(?:ai|automated|automatic|virtual|artificial)[ \t]+\w{2,20}|models?\b|machines?\b)/gi,
  },
  {
    kind: "role-override",
    rule: "to whoever is grading this",
    pattern:
      /\b(?:to|for|dear|attention|hey|hello|hi)[ \t]*,?[ \t]*(?:whoever|whatever|anyone|anybody|someone|the[ \t]+(?:person|one|thing|system|program)[ \t]+(?:who|that))\b[^.\n:]{0,40}?\b(?:grading|scoring|evaluating|judging|assessing|rating|marking)\b/gi,
  },
  {
    kind: "hidden-text",
    rule: "hidden element with evaluation words",
    pattern: new RegExp(
      String.raw`<[a-z][a-z0-9]{0,9}\b[^>]{0,200}?\s(?:hidden|aria-hidden[ \t]*=[ \t]*["']?true["']?)(?=[\s/>=])[^>]{0,200}>[^<]{0,300}?\b${EVALUATION_WORD}\b`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "hiding style with evaluation words",
    pattern: new RegExp(
      String.raw`<[a-z][a-z0-9]{0,9}\b[^>]{0,300}?${HIDING}[^>]{0,300}>[^<]{0,300}?\b${EVALUATION_WORD}\b`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "white font",
    pattern: /<font\b[^>]{0,100}?\bcolor[ \t]*=[ \t]*["']?(?:white|#fff(?:fff)?)\b/gi,
  },
  {
    kind: "hidden-text",
    rule: "Markdown comment with evaluation words",
    pattern: new RegExp(
      String.raw`^[ \t]*\[[^\]\n]{1,40}\]:[ \t]*(?:#|<>)[ \t]*[^\n]{0,300}?\b${EVALUATION_WORD}\b`,
      "gim",
    ),
  },
  {
    kind: "fake-answer",
    rule: "result block",
    pattern: new RegExp(
      `${OUTCOME_LINE}${NEARBY}(?:${OUTCOME_LINE}|${CONTEXT_LINE})|${CONTEXT_LINE}${NEARBY}${OUTCOME_LINE}`,
      "gi",
    ),
  },
  {
    kind: "fake-answer",
    rule: "JSON verdict field",
    pattern:
      /["'][ \t]*(?:met|passed|approved|fundable|compliant|pass|accepted)[ \t]*["'][ \t]*:[ \t]*(?:true|["'][ \t]*(?:yes|true|pass(?:ed)?|met)[ \t]*["'])|["'][ \t]*(?:level|rating|grade|outcome|decision|assessment|evaluation)[ \t]*["'][ \t]*:[ \t]*["'][ \t]*(?:excellent|outstanding|exemplary|pass(?:ed)?|approved|fundable|met|accepted|top|highest|great|strong|very[ \t]+good)\b/gi,
  },
  {
    kind: "fake-answer",
    rule: "TOON result header",
    pattern:
      /\b[a-z_][\w-]{0,30}(?:\[\d{1,4},?\])?\{[^}\n]{0,200}?\b(?:score|result|verdict|passed|met|rating|grade|level|outcome)\b[^}\n]{0,200}\}:/gi,
  },
  {
    kind: "fake-answer",
    rule: "table with verdicts",
    pattern:
      /(?:^|\n)[ \t]*\|[^\n]{0,300}?\b(?:score|rating|verdict|decision|outcome|assessment|grade|marks|points|evaluation)\b[^\n]{0,300}\n[ \t]*\|?[ \t]*:?-{3,}[-:| \t]{0,300}\n(?:[ \t]*\|[^\n]{0,300}\n){0,10}?[ \t]*\|[^\n]{0,300}?\|[ \t]*(?:(?:\u2714|\u2713|\u2705|\u2611)\uFE0F?[ \t]*)?(?:accepted|approved|pass(?:ed)?|met|fulfill?ed|satisfied|compliant|fundable|excellent|outstanding|full[ \t]+marks|\d{1,3}(?:\.\d{1,3})?[ \t]*\/[ \t]*\d{1,3})\b/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "the rubric was revised",
    pattern: new RegExp(
      String.raw`\b(?:(?:scoring|evaluation|assessment|marking|grading|award)[ \t]+(?:rubric|grid|criteria|criterion|scheme|guide(?:lines)?|matrix|rules?)|criterion[ \t]+\d{1,3})\b(?:[ \t]*\([^)\n]{0,40}\))?[^.\n]{0,40}?\b(?:(?:has|have|had|was|were|is|are)[ \t]+${CHANGE_ADVERB}(?:been[ \t]+)?(?:revised|amended|updated|changed|replaced|${WITHDRAWN})|${NO_LONGER})\b|\b(?:rubric|(?:the|this)[ \t]+(?:[a-z-]{2,30}[ \t]+){1,3}criterion)\b(?:[ \t]*\([^)\n]{0,40}\))?[^.\n]{0,40}?\b(?:(?:has|have|had|was|were|is|are)[ \t]+${CHANGE_ADVERB}(?:been[ \t]+)?${WITHDRAWN}|${NO_LONGER})\b`,
      "gi",
    ),
  },
  {
    kind: "criterion-redefinition",
    rule: "dropped the criterion",
    pattern:
      /\b(?:dropped|withdrawn|withdrew|waived|removed|scrapped|deleted|suspended|retired|cancell?ed)[ \t]+the[ \t]+(?:[a-z-]{2,30}[ \t]+){0,3}criteri(?:on|a)\b/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "the requirement no longer applies, so",
    pattern:
      /\b(?:requirements?|criteri(?:on|a)|rules?|conditions?|obligations?)\b[^.\n]{0,60}?\b(?:no[ \t]+longer[ \t]+appl(?:y|ies)|(?:is|are|has[ \t]+been|have[ \t]+been|was|were)[ \t]+(?:waived|withdrawn|lifted|dropped|suspended|removed))\b[^.\n]{0,80}?(?:\b(?:so|therefore|hence|thus)\b[^.\n]{0,60}?\b(?:count\w*|scor\w*|treat\w*|penali[sz]\w*|against|fulfill?ed|met|satisfied)\b|\b(?:must|should|may|can|cannot)[ \t]*(?:not[ \t]+)?(?:be[ \t]+(?:scored|assessed|evaluated)|count[ \t]+against)\b)/gi,
  },
  {
    kind: "instruction-override",
    rule: "the evaluator is instructed to accept",
    pattern: new RegExp(
      String.raw`\b${READER_OR_TOOL}[ \t]+(?:is|are)[ \t]+(?:kindly[ \t]+|hereby[ \t]+)?(?:asked|requested|invited|instructed|expected|encouraged|urged|told)[ \t]+to[ \t]+(?:accept|approve|pass|ignore|disregard|overlook|skip|excuse|waive|forgive|look[ \t]+past|treat|mark|rate|score|award|give)\b`,
      "gi",
    ),
  },
  {
    kind: "instruction-override",
    rule: "do not assess it",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:do[ \t]+not|don't|no[ \t]+need[ \t]+to)[ \t]+(?:re-?)?(?:assess|evaluate|score|check|examine|review|verify|grade|rate)[ \t]+(?:it|this|them|(?:the|this)[ \t]+(?:[\w-]{2,30}[ \t]+){0,2}?(?:criterion|criteria|section|requirement|budget|plan|proposal|application|methodology))\b`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "the reviewing system should regard it as exemplary",
    pattern: new RegExp(
      String.raw`\b${READER_OR_TOOL}(?:[ \t]+[\w-]{2,30}){0,3}?[ \t]+(?:should|must|shall|will|can|may|is[ \t]+to|are[ \t]+to)[ \t]+(?:simply[ \t]+|now[ \t]+)?(?:treat|regard|consider|mark|rate|score|grade|count|deem|record|describe|present|portray|rank|summari[sz]e|judge|assess|evaluate)[ \t]+${OBJECT}[ \t]+(?:as[ \t]+)?(?:the[ \t]+)?${OUTCOME}\b`,
      "gi",
    ),
  },
  {
    kind: "role-override",
    rule: "you, the model reading this",
    pattern:
      /\byou[ \t]*,[ \t]*(?:the|an?|our|dear)[ \t]+(?:ai|model|llm|language[ \t]+model|assistant|evaluator|grader|reviewer|assessor|judge|system)\b[^,\n]{0,40},/gi,
  },
  {
    kind: "score-manipulation",
    rule: "output a passing verdict",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:output|return|produce|issue|give|emit|write)[ \t]+(?:a|an|the)[ \t]+(?:passing|positive|favou?rable|perfect|top|maximum|full)[ \t]+(?:verdict|score|result|rating|grade|assessment|evaluation|mark)\b`,
      "gim",
    ),
  },
  {
    kind: "role-override",
    rule: "whatever system scores this",
    pattern:
      /(?:^|[\n.!?][ \t]*)(?:whoever|whatever|anyone|anybody)(?:[ \t]+[\w-]{2,20}){0,2}?[ \t]+(?:is[ \t]+|are[ \t]+)?(?:grades|grading|scores|scoring|evaluates|evaluating|judges|judging|assesses|assessing|rates|rating|marks|marking)[ \t]+(?:this|it|these|the[ \t]+(?:proposal|application|submission|content))\b/gi,
  },
];
