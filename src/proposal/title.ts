/**
 * A proposal's title, as plain text, from its research and the RFP's first line: every place a
 * proposal is named uses these.
 */

import MarkdownIt from "markdown-it";
import { oneLine, truncate } from "../shortText.js";

const MAX_PART_CHARS = 120;

const markdown = new MarkdownIt({ html: false, linkify: false });

function shortLine(text: string): string {
  return truncate(oneLine(text), MAX_PART_CHARS);
}

/** A line of Markdown as the text it shows: marks, escapes, links and code ticks taken off. */
export function plainMarkdownLine(line: string): string {
  const tokens = markdown.parse(line, {});
  const text = tokens
    .filter((token) => token.type === "inline")
    .flatMap((token) => token.children ?? [])
    .map((child) => {
      if (child.type === "text" || child.type === "code_inline") return child.content;
      if (child.type === "softbreak" || child.type === "hardbreak") return " ";
      if (child.type === "image") return child.content;
      return "";
    })
    .join("");
  return shortLine(text === "" && tokens.length === 0 ? line : text);
}

export function rfpTitle(rfp: string | undefined): string | undefined {
  for (const line of (rfp ?? "").split(/\r?\n/)) {
    const text = plainMarkdownLine(line);
    if (text !== "") return text;
  }
  return undefined;
}

function nameOf(research: Record<string, unknown>, key: string): string | undefined {
  const value = research[key];
  if (typeof value !== "string") return undefined;
  const text = shortLine(value);
  return text === "" ? undefined : text;
}

/** The funder's name: research written before it had its own `mission` said "Name: mission". */
function funderName(research: Record<string, unknown>): string | undefined {
  const funder = nameOf(research, "funder");
  if (funder === undefined || research.mission !== undefined) return funder;
  const colon = funder.indexOf(": ");
  return colon > 0 ? funder.slice(0, colon) : funder;
}

export interface TitleSource {
  researchResults?: unknown;
  rfpDocument?: string | undefined;
}

/**
 * The proposal's title: "<Project> — a proposal by <Applicant> to <Funder>" without the parts the
 * research leaves out; before research, "A proposal in response to <RFP title>"; else `fallback`.
 */
export function proposalTitle(values: TitleSource, fallback = "Proposal"): string {
  const research = values.researchResults;
  const respondsTo = rfpTitle(values.rfpDocument);
  if (typeof research !== "object" || research === null || Array.isArray(research)) {
    return respondsTo === undefined ? fallback : `A proposal in response to ${respondsTo}`;
  }
  const fields = research as Record<string, unknown>;
  const project = nameOf(fields, "project");
  const applicant = nameOf(fields, "applicant");
  const funder = funderName(fields);
  const by = applicant === undefined ? "" : ` by ${applicant}`;
  const to = funder === undefined ? "" : ` to ${funder}`;
  if (project !== undefined) return `${project} — a proposal${by}${to}`;
  if (by === "" && to === "") {
    return respondsTo === undefined ? fallback : `A proposal in response to ${respondsTo}`;
  }
  return `A proposal${by}${to}`;
}
