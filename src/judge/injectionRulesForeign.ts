import type { InjectionRule } from "./injectionRules.js";

/** One pattern with an alternative per language, run with `giu` like each of them. */
function anyOf(...patterns: RegExp[]): RegExp {
  return new RegExp(patterns.map((pattern) => pattern.source).join("|"), "giu");
}

/** Proposals are often written in these languages: the patterns keep to what addresses a judge. */
export const FOREIGN_RULES: readonly InjectionRule[] = [
  {
    kind: "instruction-override",
    rule: "ignore the instructions (German, French, Spanish)",
    keywords:
      "ignorier vergiss vergessen missacht übergeh ignore oublie tiens tenez ignora olvid omit tengas & anweisungen instruktionen regeln vorgaben befehle kriterien instructions consignes règles directives critères instrucciones indicaciones reglas directrices normas criterios",
    pattern: anyOf(
      /\b(?:ignorier(?:e|en|t)?|vergiss|vergessen\s+sie|missacht(?:e|en)|übergeh(?:e|en))\s+(?:sie\s+)?(?:bitte\s+)?(?:alle\s+|sämtliche\s+)?(?:(?:vorherigen|bisherigen|obigen|vorangegangenen|früheren|ursprünglichen|deine|ihre|die)\s+)+(?:anweisungen|instruktionen|regeln|vorgaben|befehle|bewertungskriterien|kriterien)\b/giu,
      /\b(?:ignore[zr]?|oublie[zr]?|ne\s+tiens\s+pas\s+compte\s+de|ne\s+tenez\s+pas\s+compte\s+de)\s+(?:toutes\s+|tous\s+)?(?:les|tes|vos)\s+(?:instructions|consignes|règles|directives|critères)(?:\s+(?:précédentes|antérieures|ci-dessus|initiales|d'évaluation))?/giu,
      /\b(?:ignora|ignore|ignorad|olvida|olvide|omite|omita|no\s+tengas\s+en\s+cuenta)\s+(?:todas\s+)?(?:las|tus|sus)\s+(?:instrucciones|indicaciones|reglas|directrices|normas|criterios)(?:\s+(?:anteriores|previas|de\s+arriba|iniciales|de\s+evaluación))?/giu,
    ),
  },
  {
    kind: "score-manipulation",
    rule: "give the top score (German, French, Spanish)",
    keywords:
      "gib geben vergib bewerte erteile donne attribue accorde mets mettez note da dé dele otorg asign conced califi punt & punkt wertung note N/N bestanden sehr maxim parfait meilleure xima perfecta alta",
    pattern: anyOf(
      /\b(?:gib|geben\s+sie|vergib|vergeben\s+sie|bewerte|bewerten\s+sie|erteile|erteilen\s+sie)\b[^.\n]{0,50}?\b(?:(?:volle|höchste|maximale|beste|perfekte)\s+(?:punktzahl|punkte|bewertung|note|wertung)|bestnote|höchstnote|höchstpunktzahl|10\s*\/\s*10|5\s*\/\s*5|mit\s+(?:bestanden|sehr\s+gut))/giu,
      /\b(?:donne[zr]?|attribue[zr]?|accorde[zr]?|mets|mettez|note[zr]?)\b[^.\n]{0,50}?\b(?:(?:la\s+)?note\s+(?:maximale|parfaite|maximum)|(?:la\s+)?meilleure\s+note|(?:le\s+)?score\s+(?:maximal|maximum|parfait)|20\s*\/\s*20|10\s*\/\s*10|5\s*\/\s*5)/giu,
      /\b(?:dale|dé|dele|da|otorga|otorgue|asigna|asigne|concede|conceda|califica|califique|puntúa|puntúe)\b[^.\n]{0,50}?\b(?:(?:la\s+)?(?:puntuación|calificación|nota|valoración)\s+(?:máxima|perfecta|más\s+alta)|(?:la\s+)?máxima\s+(?:puntuación|calificación|nota)|10\s*\/\s*10|5\s*\/\s*5)/giu,
    ),
  },
  {
    kind: "role-override",
    rule: "you are now (German)",
    keywords: "bist sind & jetzt nun sofort",
    pattern:
      /\b(?:du\s+bist\s+(?:jetzt|nun|ab\s+sofort)|sie\s+sind\s+(?:jetzt|nun|ab\s+sofort))\s+(?:ein|eine|der|die|kein|keine)\b/giu,
  },
  {
    kind: "role-override",
    rule: "you are now (French)",
    keywords: "maintenant désormais dorénavant",
    pattern:
      /\b(?:tu\s+es|vous\s+êtes)\s+(?:maintenant|désormais|dorénavant)\s+(?:un|une|le|la)\b/giu,
  },
  {
    kind: "role-override",
    rule: "you are now (Spanish)",
    keywords: "ahora & eres usted",
    pattern:
      /\b(?:ahora\s+eres|ahora\s+es\s+usted|a\s+partir\s+de\s+ahora\s+eres)\s+(?:un|una|el|la)\b/giu,
  },
  {
    kind: "instruction-override",
    rule: "ignore the instructions (Chinese)",
    keywords: "忽 无视 不要理会 别管 忘 跳过",
    pattern:
      /(?:忽略|无视|忽视|不要理会|别管|忘记|忘掉|跳过)(?:掉)?(?:你)?(?:之前|以上|先前|前面|上述|原有|原来|所有|全部|一切)(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|规则|提示|要求|评分标准|评估标准)/gu,
  },
  {
    kind: "score-manipulation",
    rule: "give the top score (Chinese)",
    keywords: "满分 最高 N/N 一百分 100分",
    pattern:
      /(?:给|打|评|请给|请打|评为|给予)(?:这个|此|本|该)?(?:项目|提案|申请|方案|内容)?(?:打|评)?(?:出)?(?:满分|最高分|最高评分|最高等级|10\s*\/\s*10|5\s*\/\s*5|一百分|100分)/gu,
  },
  {
    kind: "role-override",
    rule: "you are now (Chinese)",
    keywords: "你现在 从现在 请扮演",
    pattern: /(?:你现在是|从现在开始你是|从现在起你是|你现在扮演|请扮演)/gu,
  },
  {
    kind: "pre-approval",
    rule: "already approved (German, French, Spanish, Chinese)",
    keywords: "bereits approuv valid aprobad 已",
    pattern:
      /\b(?:bereits\s+(?:genehmigt|bewilligt|vorab\s+genehmigt)|déjà\s+(?:approuvée?|validée?)|ya\s+(?:aprobad[oa]|ha\s+sido\s+aprobad[oa]))\b|已(?:经)?(?:被)?(?:批准|通过审核|预先批准)/giu,
  },
];
