/**
 * The proposal document as Markdown: title, draft notice, sections (no raw HTML), appendix A with the
 * structured inputs as labelled fields, appendix B with the gate records.
 */

import { type ContentField, contentForm } from "../graph/contentFields.js";
import { markdownCell, markdownText, sectionMarkdown } from "../graph/markdownText.js";
import { structuredContentOf } from "../graph/structuredContent.js";
import { shownScore } from "../scoring/shownScore.js";
import type { GateRecord, ProposalDocument, ProposalInputPart } from "./document.js";
import { statusName } from "./statusWords.js";

const NOT_WRITTEN = "_Not written yet._";

/** Text as a fenced code block, its fence longer than any run of backticks inside. */
function codeBlock(text: string, language: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text, fence];
}

function fieldLines(fields: readonly ContentField[]): string[] {
  const out: string[] = [];
  for (const field of fields) {
    if (field.text.trim() === "") continue;
    const label = `**${markdownText(field.label)}:**`;
    if (field.kind === "text") out.push(`${label} ${markdownText(field.text)}`, "");
    else if (field.kind === "list") {
      out.push(label, "", ...(field.items ?? []).map((i) => `- ${markdownText(i)}`), "");
    } else out.push(label, "", ...codeBlock(field.text, "json"), "");
  }
  return out;
}

function inputLines(part: ProposalInputPart): string[] {
  const out = [`### ${markdownText(part.title)}`, ""];
  const type = structuredContentOf({ contentType: part.stage, contentKind: part.shape });
  if (part.content === null || type === undefined) return [...out, NOT_WRITTEN, ""];
  if (!part.accepted) out.push(`_Not approved yet (${statusName(part.status)})._`, "");
  const form = contentForm(type, part.content);
  if (form.shape === "object") return [...out, ...fieldLines(form.fields)];
  form.items.forEach((fields, index) => {
    out.push(`#### ${type.itemName ?? "Item"} ${index + 1}`, "", ...fieldLines(fields));
  });
  return out;
}

function score(gate: GateRecord): string {
  if (gate.verdict !== null && !gate.judged) return "not evaluated";
  if (gate.overallScore === null) return "—";
  return `${shownScore(gate.overallScore)}${gate.scoredBeforeEdit ? " (before the edit)" : ""}`;
}

function decisionText(gate: GateRecord): string {
  if (gate.decisions.length === 0) return "—";
  return gate.decisions
    .map((d) => {
      const who = d.reviewer === undefined ? "" : ` by ${d.reviewer}`;
      const said = d.feedback ?? d.comment;
      return `${d.action}${who} (${d.decidedAt.slice(0, 16).replace("T", " ")})${said === undefined ? "" : `: “${said}”`}`;
    })
    .join("; ");
}

function gateTable(gates: readonly GateRecord[]): string[] {
  const rows = gates.map((g) =>
    [
      g.title,
      statusName(g.status),
      score(g),
      g.verdict ?? "—",
      g.fundingStatus ?? "—",
      g.passed === null ? "—" : g.passed ? "yes" : "no",
      g.judgedWith ?? "—",
      g.round === 0 ? "—" : String(g.round),
      decisionText(g),
    ].map((cell) => markdownCell(cell, 600)),
  );
  return [
    "| Stage | Status | Score | Verdict | Funding status | Passed | Judged with | Round | Decisions |",
    "|---|---|---:|---|---|---|---|---:|---|",
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ];
}

function errorLines(document: ProposalDocument): string[] {
  const { current, superseded } = document.errors;
  const out: string[] = [];
  const line = (e: { stage?: string; message: string }) =>
    `- ${markdownCell(e.stage === undefined ? e.message : `${e.stage}: ${e.message}`, 600)}`;
  if (current.length > 0) out.push("", "**Errors**", "", ...current.map(line));
  if (superseded.length > 0) {
    out.push("", "**Earlier errors (superseded: the stage has moved on since)**", "");
    out.push(...superseded.map(line));
  }
  return out;
}

function draftNotice(document: ProposalDocument): string[] {
  if (document.state === "complete") return [];
  const left = document.pending.map((p) => `${p.title} (${statusName(p.status)})`);
  return [
    "> **Draft.** This proposal is not finished: not every stage is written and approved yet.",
    ...(left.length === 0
      ? []
      : [`> Not yet written or approved: ${markdownText(left.join(", "))}.`]),
    "",
  ];
}

export function renderProposalMarkdown(document: ProposalDocument): string {
  const out = [`# ${markdownText(document.title)}`, ""];
  if (document.respondsTo !== undefined) {
    out.push(`_In response to ${markdownText(document.respondsTo)}_`, "");
  }
  out.push(...draftNotice(document));
  for (const section of document.sections) {
    out.push(`## ${markdownText(section.title)}`, "");
    if (section.text === null || section.text.trim() === "") out.push(NOT_WRITTEN, "");
    else {
      if (!section.accepted) out.push(`_Not approved yet (${statusName(section.status)})._`, "");
      out.push(sectionMarkdown(section.text, 2), "");
    }
  }
  out.push("---", "", "## Appendix A: research, solution sought and connection pairs", "");
  out.push("What the sections were written from.", "");
  for (const part of document.inputs) out.push(...inputLines(part));
  out.push("## Appendix B: gate results and decisions", "");
  out.push(
    "Each stage's evaluation (score 0–1; verdict, funding status and passed as in evalgate's gate outcomes), the catalog version it was judged with, the round of writing its current version came from, and the reviewers' decisions.",
    "",
  );
  out.push(...gateTable(document.gates), ...errorLines(document), "");
  out.push(`Thread ${markdownText(document.threadId)}.`);
  return `${out.join("\n")}\n`;
}
