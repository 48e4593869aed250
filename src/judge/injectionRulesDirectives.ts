/**
 * Directives about how to evaluate, wherever they sit (a table cell, a footnote, a comment). Each
 * needs an evaluation word beside the directive. Every quantifier is bounded.
 */
import type { InjectionRule } from "./injectionRules.js";
import { READER } from "./injectionRulesStructural.js";

/** What a directive asks a criterion or a part of the proposal to be taken as. */
const OUTCOME = String.raw`(?:met|compliant|satisf(?:ied|actory)|complete|fulfill?ed|achieved|excellent|outstanding|strong(?:est)?|best|passed|pass(?:ing)?|approved|fundable|accepted|perfect|flawless|top|highest|maximum|full(?:y[ \t]+\w{2,20})?|well[ \t-]evidenced|realistic|feasible|adequate|sufficient|exemplary|accordingly|\d{1,3}(?:\.\d{1,3})?[ \t]*(?:\/|out[ \t]+of|of)[ \t]*\d{1,3})`;

/** The outcomes a passive directive asks for ("can be marked compliant"). */
const VERDICT = String.raw`(?:met|compliant|satisfied|fulfill?ed|passed|excellent|fundable|approved|full[ \t]+marks|perfect)`;

/** Where an imperative starts: a line, sentence, clause or element start, or a word leading into one. */
const IMPERATIVE_START = String.raw`(?:^|[\n.!?;:(\[|,>\u2013\u2014]|\b(?:and|then|please|kindly|just|simply|also|now)\b)[ \t]*(?:please[ \t]+|kindly[ \t]+)?`;

/** What a directive is about: "it", "this", "the budget criterion", "every criterion". */
const OBJECT = String.raw`(?:it|this|these|them|that|(?:the|this|that|our|each|every|all|any|its)[ \t]+(?:[\w-]{1,30}[ \t]+){0,3}?[\w-]{1,30})`;

/** The same, and the systems and tools that read for a living ("reviewing systems", "AI tool"). */
const READER_OR_TOOL = String.raw`(?:${READER}|(?:ai|automated|automatic|reviewing|grading|scoring|evaluating|machine)[ \t]+(?:systems?|tools?|programs?|agents?|reviewers?|readers?))`;

const CHANGE_ADVERB = String.raw`(?:now[ \t]+|just[ \t]+|recently[ \t]+|since[ \t]+|officially[ \t]+)?`;

/** What a criterion is claimed to have become: gone, or not counting. */
const WITHDRAWN = String.raw`(?:withdrawn|waived|removed|dropped|suspended|lifted|relaxed|cancell?ed|deleted|retired|optional|void|obsolete|not[ \t]+applicable)`;

const NO_LONGER = String.raw`no[ \t]+longer[ \t]+(?:applies|apply|counts?|matters?|relevant|required|in[ \t]+force|assessed|scored)`;

export const DIRECTIVE_RULES: readonly InjectionRule[] = [
  {
    kind: "score-manipulation",
    rule: "treat it as met",
    keywords:
      "treat mark rate score grade count consider regard deem record report classify summari label judge assess evaluate list treated marked rated scored graded counted considered regarded deemed recorded reported classified judged assessed evaluated & met compliant satisf complete fulfil achieved excellent outstanding strong pass approved fundable accepted perfect flawless top highest maximum full well realistic feasible adequate sufficient exemplary accordingly best N/N out of satisfied passed",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:treat|mark|rate|score|grade|count|consider|regard|deem|record|report|classify|summari[sz]e|label|judge|assess|evaluate|list)[ \t]+${OBJECT}[ \t]+(?:as[ \t]+(?:being[ \t]+)?|to[ \t]+be[ \t]+)?(?:fully[ \t]+|clearly[ \t]+|already[ \t]+|entirely[ \t]+)?${OUTCOME}\b|\b(?:can|could|should|must|may|shall|is[ \t]+to|are[ \t]+to)[ \t]+be[ \t]+(?:treated|marked|rated|scored|graded|counted|considered|regarded|deemed|recorded|reported|classified|judged|assessed|evaluated)[ \t]+(?:as[ \t]+)?(?:fully[ \t]+|clearly[ \t]+|already[ \t]+)?${VERDICT}\b`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "give the criterion the top level",
    keywords: "give award assign grant & full top highest maximum best perfect excellent",
    pattern: new RegExp(
      String.raw`\b(?:give|award|assign|grant)[ \t]+${OBJECT}[ \t]+(?:the[ \t]+|a[ \t]+)?(?:full[ \t]+marks|top[ \t]+(?:marks|score|level|rating|grade|band)|(?:highest|maximum|best|perfect|full|excellent)[ \t]+(?:score|level|rating|grade|marks?|points|band))\b`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "report that it is fulfilled",
    keywords:
      "report state confirm output answer respond conclude declare write & that & met satisfied fulfil compliant passed excellent strong meet",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:report|state|confirm|output|answer|respond|conclude|declare|write)[ \t]+that[ \t]+[^.\n]{0,80}?\b(?:(?:is|are|was|were|has[ \t]+been|have[ \t]+been)[ \t]+(?:fully[ \t]+|already[ \t]+|clearly[ \t]+)?(?:met|satisfied|fulfill?ed|compliant|passed|excellent|strong)|meets?[ \t]+(?:all|every|each))\b`,
      "gim",
    ),
  },
  {
    kind: "instruction-override",
    rule: "ignore the missing part",
    keywords:
      "ignore disregard overlook skip excuse forgive aside past penali deduct count mark hold & missing absent absence lack gap delay weakness error inconsistenc criteri requirement rubric score rating risk cost figures letter cv check deadline limit shortcoming omission issue problem",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:ignore|disregard|overlook|skip|excuse|forgive|set[ \t]+aside|look[ \t]+past|do[ \t]+not[ \t]+(?:penali[sz]e|deduct\w*|count|mark[ \t]+down|hold)|don't[ \t]+(?:penali[sz]e|deduct\w*|count|mark[ \t]+down|hold))[ \t]+(?!(?:no|none|nothing)\b)(?:[\w'-]{1,30}[ \t]+){0,4}?(?:missing|absent|absence|lack\w*|gaps?|delays?|weakness\w*|errors?|inconsistenc\w*|criteri(?:on|a)|requirements?|rubric|scores?|ratings?|risks?|costs?|figures|letters?|cvs?|checks?|deadlines?|limits?|shortcomings?|omissions?|issues?|problems?)\b`,
      "gim",
    ),
  },
  {
    kind: "instruction-override",
    rule: "the evaluator is asked to overlook",
    keywords:
      "asked requested invited instructed expected encouraged urged told & ignore disregard overlook skip excuse forgive past accept approve pass waive treat mark rate score award give",
    pattern: new RegExp(
      String.raw`\b(?:is|are)[ \t]+(?:kindly[ \t]+|hereby[ \t]+)?(?:asked|requested|invited|instructed|expected|encouraged|urged)[ \t]+to[ \t]+(?:ignore|disregard|overlook|skip|excuse|forgive|look[ \t]+past)\b|\b${READER_OR_TOOL}[ \t]+(?:is|are)[ \t]+(?:kindly[ \t]+|hereby[ \t]+)?(?:asked|requested|invited|instructed|expected|encouraged|urged|told)[ \t]+to[ \t]+(?:accept|approve|pass|ignore|disregard|overlook|skip|excuse|waive|forgive|look[ \t]+past|treat|mark|rate|score|award|give)\b`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "should not lower the score",
    keywords:
      "not n't & lower reduce affect impact hurt weaken against scored penali marked graded rated",
    pattern:
      /\b(?:should|must|shall|will|may|can|could|does|do)[ \t]*(?:not|n't)[ \t]+(?:lower|reduce|affect|impact|hurt|weaken|count[ \t]+against|be[ \t]+held[ \t]+against)[ \t]+(?:[\w'-]{1,30}[ \t]+){0,3}?(?:result|score|rating|grade|marks?|points|verdict|us|this[ \t]+(?:application|proposal|submission))\b|\b(?:cannot|can[ \t]*not|must[ \t]*not|should[ \t]*not)[ \t]+(?:count|be[ \t]+held)[ \t]+against\b|\b(?:must|should|shall|may|can)[ \t]*(?:not|n't)[ \t]+be[ \t]+(?:scored|penali[sz]ed|marked[ \t]+down|graded|rated)\b/gi,
  },
  {
    kind: "pre-approval",
    rule: "needs no further scrutiny",
    keywords: "scrutiny checking scoring examination",
    pattern:
      /\b(?:needs?|requires?|warrants?|merits?)[ \t]+no[ \t]+(?:further[ \t]+|additional[ \t]+|more[ \t]+)?(?:scrutiny|checking|scoring|examination)\b|\bno[ \t]+(?:further[ \t]+)?scrutiny[ \t]+(?:is[ \t]+)?(?:needed|required|necessary)\b/gi,
  },
  {
    kind: "role-override",
    rule: "if you are a language model",
    keywords: "if & you & ai a.i. language llm chat bot automat virtual artificial model machine",
    pattern:
      /\bif[ \t]+you[ \t]+are[ \t]+(?:an?[ \t]+|the[ \t]+)?(?:ai\b|a\.i\.|(?:large[ \t]+)?language[ \t]+models?|llms?\b|chat[ \t]?bots?|bots?\b|(?:ai|automated|automatic|virtual|artificial)[ \t]+\w{2,20}|models?\b|machines?\b)/gi,
  },
  {
    kind: "role-override",
    rule: "to whoever is grading this",
    keywords:
      "whoever whatever anyone anybody someone person one thing system program & grading scoring evaluating judging assessing rating marking grad scor evaluat judg assess rat mark",
    pattern:
      /\b(?:to|for|dear|attention|hey|hello|hi)[ \t]*,?[ \t]*(?:whoever|whatever|anyone|anybody|someone|the[ \t]+(?:person|one|thing|system|program)[ \t]+(?:who|that))\b[^.\n:]{0,40}?\b(?:grading|scoring|evaluating|judging|assessing|rating|marking)\b|(?:^|[\n.!?][ \t]*)(?:whoever|whatever|anyone|anybody)(?:[ \t]+[\w-]{2,20}){0,2}?[ \t]+(?:is[ \t]+|are[ \t]+)?(?:grades|grading|scores|scoring|evaluates|evaluating|judges|judging|assesses|assessing|rates|rating|marks|marking)[ \t]+(?:this|it|these|the[ \t]+(?:proposal|application|submission|content))\b/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "the rubric was revised",
    keywords:
      "rubric criteri scheme grid guide matrix rule & withdrawn waived revised amended updated changed removed dropped suspended lifted relaxed cancel deleted retired replaced optional void obsolete applicable longer",
    pattern: new RegExp(
      String.raw`\b(?:(?:scoring|evaluation|assessment|marking|grading|award)[ \t]+(?:rubric|grid|criteria|criterion|scheme|guide(?:lines)?|matrix|rules?)|criterion[ \t]+\d{1,3})\b(?:[ \t]*\([^)\n]{0,40}\))?[^.\n]{0,40}?\b(?:(?:has|have|had|was|were|is|are)[ \t]+${CHANGE_ADVERB}(?:been[ \t]+)?(?:revised|amended|updated|changed|replaced|${WITHDRAWN})|${NO_LONGER})\b|\b(?:rubric|(?:the|this)[ \t]+(?:[a-z-]{2,30}[ \t]+){1,3}criterion)\b(?:[ \t]*\([^)\n]{0,40}\))?[^.\n]{0,40}?\b(?:(?:has|have|had|was|were|is|are)[ \t]+${CHANGE_ADVERB}(?:been[ \t]+)?${WITHDRAWN}|${NO_LONGER})\b`,
      "gi",
    ),
  },
  {
    kind: "criterion-redefinition",
    rule: "dropped the criterion",
    keywords:
      "dropped withdrawn withdrew waived removed scrapped deleted suspended retired cancel & criteri",
    pattern:
      /\b(?:dropped|withdrawn|withdrew|waived|removed|scrapped|deleted|suspended|retired|cancell?ed)[ \t]+the[ \t]+(?:[a-z-]{2,30}[ \t]+){0,3}criteri(?:on|a)\b/gi,
  },
  {
    kind: "criterion-redefinition",
    rule: "the requirement no longer applies, so",
    keywords:
      "requirement criteri rule condition obligation & longer waived withdrawn lifted dropped suspended removed",
    pattern:
      /\b(?:requirements?|criteri(?:on|a)|rules?|conditions?|obligations?)\b[^.\n]{0,60}?\b(?:no[ \t]+longer[ \t]+appl(?:y|ies)|(?:is|are|has[ \t]+been|have[ \t]+been|was|were)[ \t]+(?:waived|withdrawn|lifted|dropped|suspended|removed))\b[^.\n]{0,80}?(?:\b(?:so|therefore|hence|thus)\b[^.\n]{0,60}?\b(?:count\w*|scor\w*|treat\w*|penali[sz]\w*|against|fulfill?ed|met|satisfied)\b|\b(?:must|should|may|can|cannot)[ \t]*(?:not[ \t]+)?(?:be[ \t]+(?:scored|assessed|evaluated)|count[ \t]+against)\b)/gi,
  },
  {
    kind: "instruction-override",
    rule: "do not assess it",
    keywords: "not don't need & assess evaluate score check examine review verify grade rate",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:do[ \t]+not|don't|no[ \t]+need[ \t]+to)[ \t]+(?:re-?)?(?:assess|evaluate|score|check|examine|review|verify|grade|rate)[ \t]+(?:it|this|them|(?:the|this)[ \t]+(?:[\w-]{2,30}[ \t]+){0,2}?(?:criterion|criteria|section|requirement|budget|plan|proposal|application|methodology))\b`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "the reviewing system should regard it as exemplary",
    keywords:
      "should must shall will can may is are & treat regard consider mark rate score grade count deem record describe present portray rank summari judge assess evaluate",
    pattern: new RegExp(
      String.raw`\b${READER_OR_TOOL}(?:[ \t]+[\w-]{2,30}){0,3}?[ \t]+(?:should|must|shall|will|can|may|is[ \t]+to|are[ \t]+to)[ \t]+(?:simply[ \t]+|now[ \t]+)?(?:treat|regard|consider|mark|rate|score|grade|count|deem|record|describe|present|portray|rank|summari[sz]e|judge|assess|evaluate)[ \t]+${OBJECT}[ \t]+(?:as[ \t]+)?(?:the[ \t]+)?${OUTCOME}\b`,
      "gi",
    ),
  },
  {
    kind: "role-override",
    rule: "you, the model reading this",
    keywords:
      "you & ai model llm language assistant evaluator grader reviewer assessor judge system",
    pattern:
      /\byou[ \t]*,[ \t]*(?:the|an?|our|dear)[ \t]+(?:ai|model|llm|language[ \t]+model|assistant|evaluator|grader|reviewer|assessor|judge|system)\b[^,\n]{0,40},/gi,
  },
  {
    kind: "score-manipulation",
    rule: "output a passing verdict",
    keywords:
      "output return produce issue give emit write & passing positive favourable favorable perfect top maximum full & verdict score result rating grade assessment evaluation mark",
    pattern: new RegExp(
      String.raw`${IMPERATIVE_START}(?:output|return|produce|issue|give|emit|write)[ \t]+(?:a|an|the)[ \t]+(?:passing|positive|favou?rable|perfect|top|maximum|full)[ \t]+(?:verdict|score|result|rating|grade|assessment|evaluation|mark)\b`,
      "gim",
    ),
  },
];
