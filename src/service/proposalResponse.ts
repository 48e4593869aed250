/**
 * A thread's proposal as the service answers it: JSON (the document), or Markdown to download —
 * `?format=md`, or an Accept header that asks for text/markdown.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { ProposalDocument } from "../proposal/document.js";
import { renderProposalMarkdown } from "../proposal/markdown.js";
import type { ServiceEnv } from "./env.js";

export const ProposalQuerySchema = z.object({ format: z.enum(["json", "md"]).optional() });

/** The file name a download suggests: `proposal-<thread>.md`, characters a file system minds as `_`. */
export function proposalFileName(threadId: string): string {
  return `proposal-${threadId.replace(/[^A-Za-z0-9._-]/g, "_")}.md`;
}

/** Whether the client asked for Markdown: the query says so, or the Accept header names it. */
export function wantsMarkdown(format: "json" | "md" | undefined, accept: string | undefined) {
  if (format !== undefined) return format === "md";
  return /(^|,)\s*text\/markdown\b/i.test(accept ?? "");
}

/** The document as a Markdown download. */
export function proposalMarkdownResponse(c: Context<ServiceEnv>, document: ProposalDocument) {
  return c.body(renderProposalMarkdown(document), 200, {
    "Content-Type": "text/markdown; charset=utf-8",
    "Content-Disposition": `attachment; filename="${proposalFileName(document.threadId)}"`,
  });
}
