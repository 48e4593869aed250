/** A thread's proposal as JSON, or Markdown to download (`?format=md`, or Accept: text/markdown). */
import type { Context } from "hono";
import { z } from "zod";
import type { ProposalDocument } from "../proposal/document.js";
import { renderProposalMarkdown } from "../proposal/markdown.js";
import type { ServiceEnv } from "./env.js";

export const ProposalQuerySchema = z.object({ format: z.enum(["json", "md"]).optional() });

export function wantsMarkdown(format: "json" | "md" | undefined, accept: string | undefined) {
  if (format !== undefined) return format === "md";
  return /(^|,)\s*text\/markdown\b/i.test(accept ?? "");
}

/** A download named `proposal-<thread>.md`, characters a file system minds as `_`. */
export function proposalMarkdownResponse(c: Context<ServiceEnv>, document: ProposalDocument) {
  const name = `proposal-${document.threadId.replace(/[^A-Za-z0-9._-]/g, "_")}.md`;
  return c.body(renderProposalMarkdown(document), 200, {
    "Content-Type": "text/markdown; charset=utf-8",
    "Content-Disposition": `attachment; filename="${name}"`,
  });
}
