/** The words the reading of a judge's reasoning rests on, by role. English only. */

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(/\s+/).filter((w) => w !== ""));
}

/** Verbs (and their forms) that state whether the criterion holds: "meets", "is satisfied". */
export const VERDICT_VERBS = words(`
  meet meets met meeting satisfy satisfies satisfied satisfying fulfil fulfils fulfill fulfills
  fulfilled fulfilling address addresses addressed pass passes passed comply complies complied
  demonstrate demonstrates demonstrated`);

/**
 * Verbs that are a verdict only on the criterion itself ("exceeds the requirement"): "costs exceed
 * the cap" is a figure, and "does not exceed the requirement" says it is met, no more.
 */
export const EXCEEDING = words(`exceed exceeds exceeded exceeding`);

/** Verdicts that are negative by themselves: "unmet", "fails". */
export const NEGATIVE_VERDICTS = words(
  `unmet unsatisfied unfulfilled unaddressed fail fails failed`,
);

/** What a verdict is about: the criterion, the requirement, the check, the bar. */
export const CRITERION_NOUNS = words(`
  criterion criteria requirement requirements check standard standards bar rule rules
  expectation expectations condition conditions threshold`);

/** Words that say the content is there: affirmed, a weak "met"; negated, a weak "not met". */
export const PRESENCE_WORDS = words(`
  provided provides described describes included includes contains contained given stated states
  mentioned mentions specified specifies explained explains shown shows discussed discusses
  defined defines justified quantified quantifies named names identified identifies attached
  documented supported substantiated covered covers analysed analyzed assessed presented listed
  lists cited offers offered submitted confirms confirmed present available says`);

/** The same verbs in forms that only speak when negated ("does not provide"). */
export const PRESENCE_BARE = words(`
  provide describe include contain give state mention specify explain show discuss define justify
  quantify name identify attach document support substantiate cover analyse analyze assess
  present list cite offer submit confirm say`);

/** Nouns of content that "no" or "insufficient" turn into an absence: "no evidence", "no mention". */
export const CONTENT_NOUNS = words(`
  mention indication evidence information description detail details data sign reference
  references explanation justification breakdown analysis assessment measure measures indicator
  indicators plan statement mitigation proof example examples figures`);

/** Words that judge something good: affirmed, a weak "met"; negated ("not clear"), a weak "not met". */
export const POSITIVE_WORDS = words(`
  adequate adequately sufficient sufficiently good strong solid sound convincing convincingly
  clear clearly complete thorough thoroughly robust credible plausible realistic coherent
  appropriate reasonable satisfactory excellent outstanding rigorous comprehensive well
  consistent measurable specific fine relevant feasible effective compelling detailed precise
  exemplary perfect perfectly flawless`);

/** Words that say something is missing or weak: a weak "not met"; negated ("nothing is missing"), a weak "met". */
export const NEGATIVE_WORDS = words(`
  missing absent absence lack lacks lacking lacked empty vague weak weakness weaknesses gap gaps
  incomplete unclear superficial generic inadequate insufficient poor poorly unsupported
  unsubstantiated omitted omits placeholder contradicts contradictory inconsistent ignores ignore
  ignored deficient flaw flaws flawed shortcoming shortcomings inflated outdated unrealistic
  implausible doubtful questionable thin silent ineligible unjustified`);

/** Words that turn the next verdict or judgement around. */
export const NEGATORS = words(`not no never nothing none neither nor without hardly barely`);

/**
 * Negators that deny the word next to them ("not unclear", "does not lack"), so they are spent on a
 * negative term only one or two words on; the others ("no", "none of", "without") deny a thing
 * further on ("no ineligible costs", "none of the costs are ineligible").
 */
export const ADVERB_NEGATORS = words(`not never hardly barely`);

/**
 * Words that end the thing a negator denies: "no attempt to close the gaps" denies the attempt, and
 * "no mitigation for the gaps" the mitigation, not the gaps ("none of" is the negator's own "of").
 */
export const SCOPE_ENDS = words(`to for of on about with against by from`);

/** Words after a presence verb that deny it: "contains no information", "names none". */
export const TRAILING_NEGATORS = words(`no none nothing neither`);

/** Hedges: a verdict they qualify is not an unreserved one ("largely meets"). */
export const HEDGES = words(`
  largely mostly partly partially somewhat broadly generally nearly almost arguably mainly
  reasonably fairly moderately`);

/** Intensifiers that make a positive verdict glowing ("fully meets", "excellent"). */
export const EMPHATIC = words(`
  fully completely entirely clearly every excellent outstanding exemplary perfect
  perfectly flawless thoroughly`);

/** Words that open a concession: what follows (to the next comma) is conceded, not concluded. */
export const CONCESSION_OPENERS = words(`although though while whereas despite except unless`);

/** Words that open a new clause. */
export const CLAUSE_OPENERS = words(`
  but yet however although though whereas while despite because since so which unless except
  whether`);

/** Negators that deny a thing ("no evidence", "without a plan"), not a verb ("does not change"). */
export const DETERMINER_NEGATORS = words(`no without`);

/** After "nothing" or "none", these say the content is silent on a topic: "nothing on risks". */
export const TOPIC_PREPOSITIONS = words(`on about regarding concerning`);

/** Adverbs that soften a negation to "not in so many words": "not stated explicitly". */
export const SOFTENERS = words(`explicitly separately directly individually yet`);

/** A clause that states a condition or a hypothesis, not a finding: "would not be met if …". */
export const HYPOTHETICAL =
  /\b(?:would|might|should|if|unless)\b|\b(?:could|can)\s+(?!not\b)|^\s*whether\b/;

/** A clause that reports someone else's view or an earlier state: "the applicant claims …". */
export const REPORTED =
  /\b(?:said\s+that|says\s+that|claims|claim\s+that|claimed\s+that|argued|argues|according\s+to|initially|at\s+first|seemed|first\s+draft|previous\s+round|earlier\s+(?:version|draft)|was\s+a\s+concern|previously)\b/;

/** A sentence that sets a weakness aside: "…, which is a minor weakness", "does not affect …". */
export const SET_ASIDE =
  /\b(?:minor|slight|slightly|small\s+issue|do(?:es)?\s+not\s+(?:affect|change|alter|lower|reduce|undermine)|not\s+required|do(?:es)?\s+not\s+require|not\s+needed|not\s+necessary|acceptable|not\s+essential|do(?:es)?\s+not\s+matter|not\s+(?:a|an)\s+(?:problem|issue)|not\s+critical)\b/;

/** Statements that the criterion could not be judged at all: strong "not met" whatever follows. */
export const CANNOT_JUDGE =
  /\b(?:(?:insufficient|not\s+enough)\s+(?:information|evidence|detail|details|data)|(?:information|evidence|detail|details|data)\s+(?:is|are|was|were|remains?)\s+(?:insufficient|lacking|not\s+enough)|can\s+not\s+be\s+(?:assessed|evaluated|determined|judged|confirmed|verified|scored|rated)|could\s+not\s+be\s+(?:assessed|evaluated|determined|judged|confirmed|verified)|unable\s+to\s+(?:assess|evaluate|determine|judge|confirm|verify))\b/;
