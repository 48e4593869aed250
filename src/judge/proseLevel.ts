/** A levels answer written as prose: the level it names, when it names exactly one. */
import type { Level } from "../criteria/model.js";
import type { JudgeAnswer } from "./answer.js";
import { unusableAnswer } from "./answer.js";
import { NEGATORS } from "./reasoningLexicon.js";

/** The longest prose answer read for a level; longer text is an essay, not a classification. */
const MAX_PROSE_LEVEL_CHARS = 2_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function namesOf(level: Level): string[] {
  const spaced = level.id.replace(/[_-]+/g, " ");
  return [...new Set([level.id, spaced, level.label].map((n) => n.trim().toLowerCase()))].filter(
    (n) => n !== "",
  );
}

interface Mention {
  level: Level;
  start: number;
  end: number;
}

/** How many words before a level's name, in its clause, a negator turns it around. */
const NEGATION_REACH = 4;

/** "not excellent", "isn't really excellent": the words just before the name deny it. */
function negated(lower: string, mention: Mention): boolean {
  const clause =
    lower
      .slice(0, mention.start)
      .split(/[.;:!?,]/)
      .at(-1) ?? "";
  const before = clause.replace(/n't\b|\bcannot\b/g, " not").match(/[\p{L}']+/gu) ?? [];
  return before.slice(-NEGATION_REACH).some((word) => NEGATORS.has(word));
}

/** A mention inside a longer one does not count. */
function mentionsIn(text: string, levels: readonly Level[]): Mention[] {
  const lower = text.toLowerCase();
  const found: Mention[] = [];
  for (const level of levels) {
    for (const name of namesOf(level)) {
      const pattern = new RegExp(
        `(?<![\\p{L}\\p{N}_])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`,
        "gu",
      );
      for (const match of lower.matchAll(pattern)) {
        found.push({ level, start: match.index, end: match.index + match[0].length });
      }
    }
  }
  return found.filter(
    (m) =>
      !found.some(
        (o) => o !== m && o.start <= m.start && o.end >= m.end && o.end - o.start > m.end - m.start,
      ),
  );
}

export function readProseLevel(text: string, levels: readonly Level[]): JudgeAnswer {
  const prose = text.trim();
  if (prose.length > MAX_PROSE_LEVEL_CHARS) {
    return unusableAnswer(
      "no JSON object found, and the prose answer is too long to read a level from",
    );
  }
  const mentions = mentionsIn(prose, levels);
  const denied = mentions.find((m) => negated(prose.toLowerCase(), m));
  if (denied !== undefined) {
    return unusableAnswer(
      `no JSON object, and the prose answer negates the level it names ('${denied.level.id}'); the judge must give one`,
      prose,
    );
  }
  const named = [...new Set(mentions.map((m) => m.level))];
  const [only] = named;
  if (named.length === 1 && only !== undefined) {
    return {
      usable: true,
      score01: only.score,
      native: only.id,
      level: only.id,
      reasoning: prose,
      hits: [],
      misses: [],
      notes: [`no JSON object: the prose answer names exactly one level, '${only.id}'`],
    };
  }
  if (named.length > 1) {
    return unusableAnswer(
      `no JSON object, and the prose answer names ${named.length} levels (${named.map((l) => l.id).join(", ")}); the judge must give one`,
      prose,
    );
  }
  return unusableAnswer("no JSON object found, and the prose answer names no level", prose);
}
