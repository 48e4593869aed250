/**
 * Finds every `evalgate …` command the documentation shows: in fenced code blocks (sh, bash,
 * console, shell or no language), in indented code blocks, and in inline code spans of prose and
 * tables. Each command keeps where it was written (file, line), the words after `evalgate`, the
 * output the docs show for it (a fenced block right after it, or the `# …` comment after it) and
 * the marker the docs put before its block (`<!-- docs-test: … -->`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type CommandSource = "block" | "inline";

export interface DocCommand {
  /** The documentation file, relative to the repository root. */
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command as written, without the prompt and anything before `evalgate`. */
  text: string;
  /** The words after `evalgate`, split as a POSIX shell would (quotes removed, no expansion). */
  args: string[];
  source: CommandSource;
  /** The comment after the command on its line (`# prints ada's token once`), if any. */
  comment?: string;
  /** The fenced block right after the command's block: the output the docs show. */
  shownOutput?: string;
  /** The reason of a `<!-- docs-test: … -->` marker on the line before the command's block. */
  marker?: string;
  /** The index of the command's block in its file (commands of one block run in order). */
  block?: number;
}

const SHELL_LANGUAGES = new Set(["", "sh", "bash", "console", "shell"]);
const MARKER = /^<!--\s*docs-test:\s*(.*?)\s*-->\s*$/;
/** `evalgate` or `npx evalgate` as a command word (not `evalgate/judge` or `evalgate_…`). */
const COMMAND_START = /(?:^|&&\s*|;\s*|\$\s+|\|\s*)((?:npx\s+)?evalgate)(?=\s|$)/;

/** Splits a command line into words the way sh does for quotes; no variables are expanded. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`unclosed ${quote} in: ${text}`);
  if (inWord) words.push(current);
  return words;
}

/** Where a `# comment` starts on a shell line: a `#` after whitespace and outside quotes. */
function commentStart(text: string): number {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "#" && (i === 0 || /\s/.test(text[i - 1] ?? ""))) return i;
  }
  return -1;
}

/** The command from `evalgate` on, or undefined when the text runs no evalgate command. */
function commandIn(text: string): string | undefined {
  const match = COMMAND_START.exec(text);
  if (match?.[1] === undefined) return undefined;
  const from = text.slice(match.index + match[0].length - match[1].length);
  // A pipe or a second command after it is not part of it.
  return from.split(/\s(?:&&|\||;)\s/)[0]?.trim();
}

function wordsAfterEvalgate(command: string): string[] {
  const words = shellWords(command);
  const at = words.indexOf("evalgate");
  return words.slice(at + 1);
}

interface Block {
  language: string;
  startLine: number;
  lines: string[];
  marker?: string;
  endLine: number;
}

interface Parsed {
  blocks: Block[];
  /** The text outside fenced blocks, with fenced lines blanked (line numbers kept). */
  prose: string[];
}

function parseMarkdown(text: string): Parsed {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  const prose = [...lines];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(lines[i] ?? "");
    if (open === null) continue;
    const fence = open[2] ?? "```";
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !(lines[j] ?? "").trim().startsWith(fence)) {
      body.push(lines[j] ?? "");
      j += 1;
    }
    const marker = MARKER.exec(lines[i - 1] ?? "")?.[1];
    blocks.push({
      language: open[3] ?? "",
      startLine: i + 2,
      lines: body,
      endLine: j + 1,
      ...(marker === undefined ? {} : { marker }),
    });
    for (let k = i; k <= j && k < lines.length; k += 1) prose[k] = "";
    i = j;
  }
  return { blocks, prose };
}

/** Indented code blocks (four spaces after a blank line) outside lists become blocks too. */
function indentedBlocks(prose: string[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < prose.length; i += 1) {
    if ((prose[i - 1] ?? "").trim() !== "" || !/^ {4}\S/.test(prose[i] ?? "")) continue;
    const body: string[] = [];
    const start = i;
    while (i < prose.length && (/^ {4}/.test(prose[i] ?? "") || (prose[i] ?? "") === "")) {
      body.push((prose[i] ?? "").slice(4));
      prose[i] = "";
      i += 1;
    }
    const marker = MARKER.exec(prose[start - 2] ?? "")?.[1];
    blocks.push({
      language: "",
      startLine: start + 1,
      lines: body,
      endLine: i,
      ...(marker === undefined ? {} : { marker }),
    });
  }
  return blocks;
}

function blockCommands(file: string, blocks: Block[]): DocCommand[] {
  const commands: DocCommand[] = [];
  blocks.forEach((block, index) => {
    if (!SHELL_LANGUAGES.has(block.language)) return;
    const next = blocks[index + 1];
    const shownOutput =
      next !== undefined && next.startLine - block.endLine <= 3 && next.language === ""
        ? next.lines.join("\n")
        : undefined;
    for (let i = 0; i < block.lines.length; i += 1) {
      let text = block.lines[i] ?? "";
      const line = block.startLine + i;
      while (text.endsWith("\\") && i + 1 < block.lines.length) {
        i += 1;
        text = `${text.slice(0, -1).trimEnd()} ${(block.lines[i] ?? "").trim()}`;
      }
      const hash = commentStart(text);
      const comment = hash < 0 ? undefined : text.slice(hash + 1).trim();
      const command = commandIn(hash < 0 ? text : text.slice(0, hash));
      if (command === undefined) continue;
      commands.push({
        file,
        line,
        text: command,
        args: wordsAfterEvalgate(command),
        source: "block",
        block: index,
        ...(comment === undefined ? {} : { comment }),
        ...(shownOutput === undefined ? {} : { shownOutput }),
        ...(block.marker === undefined ? {} : { marker: block.marker }),
      });
    }
  });
  return commands;
}

/** Inline code spans naming a command; a span may run over a line break, as Markdown allows. */
function inlineCommands(file: string, prose: string[]): DocCommand[] {
  const text = prose.join("\n");
  const commands: DocCommand[] = [];
  for (const match of text.matchAll(/(?<!`)`([^`]+?)`(?!`)/g)) {
    const span = (match[1] ?? "").replace(/\s*\n\s*/g, " ").replace(/\\\|/g, "|");
    if (!/^(?:npx\s+)?evalgate(?:\s|$)/.test(span)) continue;
    const line = text.slice(0, match.index).split("\n").length;
    const command = span.trim();
    const args = wordsAfterEvalgate(command);
    // `evalgate` alone names the package, not a command.
    if (args.length === 0) continue;
    commands.push({
      file,
      line,
      text: command,
      args: wordsAfterEvalgate(command),
      source: "inline",
    });
  }
  return commands;
}

/** Every evalgate command of one Markdown file. */
export function commandsOfFile(root: string, file: string): DocCommand[] {
  const { blocks, prose } = parseMarkdown(readFileSync(join(root, file), "utf8"));
  const indented = indentedBlocks(prose);
  return [
    ...blockCommands(file, blocks),
    ...blockCommands(file, indented),
    ...inlineCommands(file, prose),
  ].sort((a, b) => a.line - b.line);
}

/** README.md and every docs/*.md. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

/** Every evalgate command of the documentation. */
export function documentedCommands(root: string): DocCommand[] {
  return documentationFiles(root).flatMap((file) => commandsOfFile(root, file));
}

/** A command with a `<placeholder>` (or `[optional]` part) is a template, not a command to run. */
export function isTemplate(command: DocCommand): boolean {
  return /<[^>]+>|\[[^\]]*\]|…|\.\.\./.test(command.text);
}
