/**
 * A cheap, exact prefilter for the injection patterns. For each pattern, groups of literal
 * keywords such that every match of the pattern contains at least one keyword of every group
 * (taken from the pattern's own required alternatives). A view whose folded text lacks a group
 * cannot match, so the pattern is not run over it. Folding lower-cases the view and maps the few
 * characters that case-insensitive patterns equate with an ASCII letter but lower-casing does not
 * (dotless ı, long ſ, the Kelvin sign), so a keyword is found wherever the pattern could match.
 *
 * Format: groups separated by " & ", alternatives by spaces; the keyword N/N stands for a number,
 * a slash and a number ("10/10", "5 / 5"), digits, spaces and slashes having no case.
 */
const KEYWORDS: Readonly<Record<string, string>> = {
  "ignore previous instructions":
    "ignore disregard forget override bypass skip aside attention follow apply & instruction prompt rules direct guideline message context command",
  "ignore all instructions": "ignore disregard forget & instructions rules",
  "disregard the rubric":
    "ignore disregard forget override bypass aside attention follow apply & rubric scoring evaluation grading judging",
  "new instructions": "instructions",
  "you are now": "you & now",
  "pretend to be": "pretend",
  "from now on you": "from & now",
  "you must act as": "you & act behave respond pretend",
  "addressing the AI judge":
    "note message instruction dear attention hey & ai llm gpt language judge automated",
  "as the AI judge, you": "you & ai llm language judge evaluator grader",
  "give this a score": "give assign award grant & score rating grade mark points",
  "give this N": "give assign award & 0 1 2 3 4 5 6 7 8 9",
  "rate this 5/5": "rate score grade mark",
  "output pass":
    "output return respond reply answer print emit say & pass approved fundable excellent",
  "must receive the highest score":
    "must should shall deserve has needs & receive get given awarded rated scored pass",
  "role tag": "< & > & sys assistant user instruction",
  "[INST] tag": "inst] sys>>",
  "chat-template token": "<| & |>",
  "### System: header": "# & : & system assistant user",
  "JSON score field": "score coverage_extent & :",
  "JSON result field": "result verdict & pass fail",
  "JSON level_id field": "level_id",
  "XML coverage answer": "coverage_extent reflection",
  "TOON results table": "results[",
  "pre-approved": "approved authori guaranteed",
  "no evaluation needed": "needed required necessary evaluated scored assessed",
  "hidden style": "style & display visibility font-size color",
  "fake system note":
    "system admin developer operator moderator evaluator judge grader assistant ai anthropic & note notice message override instruction prompt directive command alert memo",
  "system note in capitals":
    "system admin developer operator evaluator judge ai & note notice message override instruction prompt directive command alert memo",
  "note from the system":
    "note message notice memo & from by & system admin platform developer evaluation",
  "the evaluator should confirm a pass":
    "evaluator reviewer judge grader assessor model ai & confirm give assign award mark record output return accept grant",
  "act as an advocate, not a reviewer": "act & reviewer evaluator judge grader assessor",
  "anything less than top marks": "any & less lower below & top full perfect maximum highest",
  "the top score to this proposal":
    "give assign award grant & full perfect max highest top best & score rating grade mark points",
  "you, as the evaluator": "you & evaluator reviewer judge grader assessor model assistant",
  "bracketed system tag": "[ & sys admin override",
  "override banner": "override",
  "already approved": "already & approved accepted selected cleared",
  "forged content delimiter": "<< >>>",
  "end of content marker":
    "end & content document proposal data input submission application user text",
  "prompt section tag":
    "< & > & content data source_document criterion guidelines answer_format reference_answer candidate_answer evaluation rubric",
  "evaluation result stated":
    "result outcome verdict decision & pass approved fundable accepted excellent success",
  "verdict in capitals": "verdict result status decision & pass approved fundable",
  "score line": "score rating grade & 1 5",
  "score table":
    "| & criteri requirement & score rating result verdict grade points pass assessment outcome mark",
  "top marks in a table": "| & excellent outstanding pass & N/N 1.0",
  "new criteria":
    "updated revised new amended corrected replacement clarified official & criteri rubric scoring",
  "criterion changed":
    "criteri rubric scoring requirement & been & redefined updated changed amended replaced revised waived removed suspended",
  "redefine the criterion": "redefin & criteri",
  "criterion deemed met":
    "criteri & considered deemed treated marked automatically already & met satisfied fulfilled passed complete",
  "criterion now means": "criteri rubric & now henceforth & mean require read satisfied",
  "prompt structure line": "criterion answer scoring rubric & :",
  "polite request for a score":
    "please kindly ask request invite urge & give assign award rate score grant mark grade & full top perfect max highest N/N out pass",
  "what a fair evaluator would give":
    "fair reasonable competent good objective careful honest sensible thoughtful impartial knowledgeable expert & evaluator reviewer judge grader assessor model ai llm assistant examiner panel",
  "deserves the top score":
    "deserve merit warrant worthy entitled qualifies earn & full top perfect max highest N/N out pass",
  "the only fair score":
    "only & fair appropriate reasonable correct possible acceptable logical & score rating grade verdict outcome result mark",
  "give N out of N": "give assign award rate score grade mark & N/N full top",
  "addressed to the evaluator":
    "ai automat llm language & evaluator reviewer judge grader assessor model ai llm assistant examiner panel",
  "ignore the instructions (German)":
    "ignorier vergiss vergessen missacht übergeh & anweisungen instruktionen regeln vorgaben befehle kriterien",
  "give the top score (German)":
    "gib geben vergib bewerte erteile & punkt wertung note N/N bestanden sehr",
  "you are now (German)": "bist sind & jetzt nun sofort",
  "ignore the instructions (French)":
    "ignore oublie tiens tenez & instructions consignes règles directives critères",
  "give the top score (French)":
    "donne attribue accorde mets mettez note & maxim parfait meilleure N/N",
  "you are now (French)": "maintenant désormais dorénavant",
  "ignore the instructions (Spanish)":
    "ignora ignore olvid omit tengas & instrucciones indicaciones reglas directrices normas criterios",
  "give the top score (Spanish)":
    "da dé dele otorg asign conced califi punt & xima perfecta alta N/N",
  "you are now (Spanish)": "ahora & eres usted",
  "ignore the instructions (Chinese)": "忽 无视 不要理会 别管 忘 跳过",
  "give the top score (Chinese)": "满分 最高 N/N 一百分 100分",
  "you are now (Chinese)": "你现在 从现在 请扮演",
  "already approved (German, French, Spanish, Chinese)": "bereits approuv valid aprobad 已",
  "role line with a verdict":
    "system assistant developer evaluator judge grader reviewer assessor model ai user human & :",
  "chat turn marker": "_of_turn system_prompt",
  "prompt section heading": "# & instruction response input system assistant human user",
  "treat it as met":
    "treat mark rate score grade count consider regard deem record report classify summari label judge assess evaluate list & met compliant satisf complete fulfil achieved excellent outstanding strong pass approved fundable accepted perfect flawless top highest maximum full well realistic feasible adequate sufficient exemplary accordingly best N/N out of",
  "can be marked compliant":
    "treated marked rated scored graded counted considered regarded deemed recorded reported classified judged assessed evaluated & met compliant satisfied fulfil passed excellent fundable approved full perfect",
  "give the criterion the top level":
    "give award assign grant & full top highest maximum best perfect excellent",
  "report that it is fulfilled":
    "report state confirm output answer respond conclude declare write & that & met satisfied fulfil compliant passed excellent strong meet",
  "ignore the missing part":
    "ignore disregard overlook skip excuse forgive aside past penali deduct count mark hold & missing absent absence lack gap delay weakness error inconsistenc criteri requirement rubric score rating risk cost figures letter cv check deadline limit shortcoming omission issue problem",
  "evaluators are asked to overlook":
    "asked requested invited instructed expected encouraged urged & ignore disregard overlook skip excuse forgive past",
  "should not lower the score":
    "not n't & lower reduce affect impact hurt weaken against scored penali marked graded rated",
  "needs no further scrutiny": "scrutiny checking scoring examination",
  "if you are a language model":
    "if & you & ai a.i. language llm chat bot automat virtual artificial model machine",
  "to whoever is grading this":
    "whoever whatever anyone anybody someone person one thing system program & grading scoring evaluating judging assessing rating marking",
  "hidden element with evaluation words":
    "< & hidden & evaluator reviewer assessor grader judge examiner model ai llm assistant bot scor rat grade criteri rubric verdict pass met compliant marks points level approv",
  "hiding style with evaluation words":
    "< & opacity left top right indent margin height width clip transform font-size color fill & evaluator reviewer assessor grader judge examiner model ai llm assistant bot scor rat grade criteri rubric verdict pass met compliant marks points level approv",
  "white font": "font & color & white #fff",
  "Markdown comment with evaluation words":
    "]: & # <> & evaluator reviewer assessor grader judge examiner model ai llm assistant bot scor rat grade criteri rubric verdict pass met compliant marks points level approv",
  "result block":
    "score rating grade points marks verdict result outcome decision passed met approved level status recommendation & : =",
  "JSON verdict field":
    "met pass approved fundable compliant accepted level rating grade outcome decision assessment evaluation & :",
  "TOON result header": "{ & }: & score result verdict passed met rating grade level outcome",
  "table with verdicts":
    "| & --- & score rating verdict result decision outcome assessment grade marks points evaluation review",
  "the rubric was revised":
    "rubric criteri scheme grid guide matrix rule & withdrawn waived revised amended updated changed removed dropped suspended lifted relaxed cancel deleted retired replaced optional void obsolete applicable longer",
  "dropped the criterion":
    "dropped withdrawn withdrew waived removed scrapped deleted suspended retired cancel & criteri",
  "the evaluator is instructed to accept":
    "asked requested invited instructed expected encouraged urged told & accept approve pass ignore disregard overlook skip excuse waive forgive past treat mark rate score award give",
  "do not assess it":
    "not don't need & assess evaluate score check examine review verify grade rate",
  "the reviewing system should regard it as exemplary":
    "should must shall will can may is are & treat regard consider mark rate score grade count deem record describe present portray rank summari judge assess evaluate",
  "you, the model reading this":
    "you & ai model llm language assistant evaluator grader reviewer assessor judge system",
  "output a passing verdict":
    "output return produce issue give emit write & passing positive favourable favorable perfect top maximum full & verdict score result rating grade assessment evaluation mark",
  "whatever system scores this":
    "whoever whatever anyone anybody & grad scor evaluat judg assess rat mark",
  "the requirement no longer applies, so":
    "requirement criteri rule condition obligation & longer waived withdrawn lifted dropped suspended removed",
};

/** The keyword groups of a rule, or undefined when it has none and is always run. */
export const RULE_KEYWORDS: ReadonlyMap<string, ReadonlyArray<readonly string[]>> = new Map(
  Object.entries(KEYWORDS).map(([rule, spec]) => [
    rule,
    spec.split(" & ").map((group) => group.split(" ").filter((word) => word !== "")),
  ]),
);

/** Characters that case-insensitive patterns equate with an ASCII letter, lower-casing not. */
const CASE_FOLD_EXTRAS: Readonly<Record<string, string>> = {
  ı: "i",
  ſ: "s",
  "\u212A": "k",
};

const TRIGRAM_SLOTS = 1 << 16;

/** A hash of three UTF-16 code units, to a slot of the trigram table. */
function trigramSlot(a: number, b: number, c: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & (TRIGRAM_SLOTS - 1);
}

/**
 * What the keywords are looked for in: the text lower-cased, with the case-fold extras mapped.
 * A table of the text's three-unit sequences (hashed) rules most absent keywords out without a
 * search: a keyword with a sequence not in the table is not in the text. Otherwise the text is
 * searched, once per keyword (the rules share many of them).
 */
export class KeywordHaystack {
  private readonly folded: string;
  private readonly slashedNumbers: boolean;
  private readonly trigrams = new Uint32Array(TRIGRAM_SLOTS / 32);
  private readonly seen = new Map<string, boolean>();

  constructor(text: string) {
    const folded = text.toLowerCase().replace(/[ıſ\u212A]/g, (c) => CASE_FOLD_EXTRAS[c] ?? c);
    this.folded = folded;
    this.slashedNumbers = /\d\s*\/\s*\d/.test(text);
    let a = folded.charCodeAt(0);
    let b = folded.charCodeAt(1);
    for (let i = 2; i < folded.length; i++) {
      const c = folded.charCodeAt(i);
      const slot = trigramSlot(a, b, c);
      this.trigrams[slot >>> 5] = (this.trigrams[slot >>> 5] ?? 0) | (1 << (slot & 31));
      a = b;
      b = c;
    }
  }

  has(word: string): boolean {
    if (word === "N/N") return this.slashedNumbers;
    let present = this.seen.get(word);
    if (present === undefined) {
      present = this.mayContain(word) && this.folded.includes(word);
      this.seen.set(word, present);
    }
    return present;
  }

  private mayContain(word: string): boolean {
    for (let i = 0; i + 2 < word.length; i++) {
      const slot = trigramSlot(word.charCodeAt(i), word.charCodeAt(i + 1), word.charCodeAt(i + 2));
      if (((this.trigrams[slot >>> 5] ?? 0) & (1 << (slot & 31))) === 0) return false;
    }
    return true;
  }
}

/** False only when the rule cannot match the text of this haystack. */
export function mayMatch(rule: string, haystack: KeywordHaystack): boolean {
  const groups = RULE_KEYWORDS.get(rule);
  if (groups === undefined) return true;
  return groups.every((group) => group.some((word) => haystack.has(word)));
}
