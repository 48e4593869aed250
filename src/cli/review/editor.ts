/**
 * Editing a stage's content during `run`: the reviewer's editor (EVALGATE_EDITOR, VISUAL, else
 * EDITOR — not under npm, which sets EDITOR=vi itself), else a file they edit and hand back with
 * Enter.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { TextOutput } from "../context.js";
import { startedByNpm } from "../context.js";
import { EditorError, isEditorError, isInputFileError } from "../errors.js";
import { readEditFile } from "../inputFiles.js";
import { askLine, type LineReader } from "./input.js";

export interface EditorChoice {
  command: string;
  source: "EVALGATE_EDITOR" | "VISUAL" | "EDITOR";
}

type Env = Readonly<Record<string, string | undefined>>;

/** EVALGATE_EDITOR or VISUAL whenever set; EDITOR only on a terminal and not under npm. */
export function chosenEditor(env: Env, terminal: boolean): EditorChoice | undefined {
  for (const source of ["EVALGATE_EDITOR", "VISUAL"] as const) {
    const command = env[source]?.trim();
    if (command !== undefined && command !== "") return { command, source };
  }
  const editor = env.EDITOR?.trim();
  if (editor === undefined || editor === "" || !terminal || startedByNpm(env)) return undefined;
  return { command: editor, source: "EDITOR" };
}

/** How to save and leave the editors that do not say so themselves. */
const QUIT_KEYS: Readonly<Record<string, string>> = {
  vi: "type :wq and Enter to save and quit, :q! to quit without saving",
  vim: "type :wq and Enter to save and quit, :q! to quit without saving",
  nvim: "type :wq and Enter to save and quit, :q! to quit without saving",
  nano: "Ctrl-O then Enter saves, Ctrl-X quits",
  emacs: "Ctrl-X Ctrl-S saves, Ctrl-X Ctrl-C quits",
};

/**
 * The program and its arguments: words split at spaces, a '…' or "…" part kept whole (a path
 * with spaces quoted); a whole setting that names a file is that program, spaces and all.
 */
export function editorWords(editor: string): string[] {
  const command = editor.trim();
  if (existsSync(command) && statSync(command).isFile()) return [command];
  const words = command.match(/(?:"[^"]*"|'[^']*'|[^\s"'])+/g) ?? [];
  return words.map((word) => word.replace(/"([^"]*)"|'([^']*)'/g, "$1$2"));
}

export function editorHint(choice: EditorChoice, file: string): string {
  const program = basename(editorWords(choice.command)[0] ?? "");
  const keys = QUIT_KEYS[program];
  return (
    `Opening ${file} in ${program} (${choice.source}): save and quit to use your edit` +
    `${keys === undefined ? "" : ` (${keys})`}; leave it unchanged to keep the content.`
  );
}

/**
 * The editor's stdin: the terminal, never the review's answers. A terminal stdin is the
 * editor's while it runs; piped answers are not: the editor gets /dev/tty when there is one,
 * else no input.
 */
function editorStdin(stdinIsTerminal: boolean): "inherit" | "ignore" | number {
  if (stdinIsTerminal) return "inherit";
  try {
    return openSync("/dev/tty", "r");
  } catch {
    return "ignore";
  }
}

export function runEditor(editor: string, file: string, stdinIsTerminal: boolean): void {
  const [command, ...args] = editorWords(editor);
  if (command === undefined || command === "") throw new EditorError(editor, "it is empty");
  const stdin = editorStdin(stdinIsTerminal);
  let result: ReturnType<typeof spawnSync>;
  try {
    result = spawnSync(command, [...args, file], { stdio: [stdin, "inherit", "inherit"] });
  } finally {
    if (typeof stdin === "number") closeSync(stdin);
  }
  if (result.error !== undefined) {
    throw new EditorError(editor, `cannot start it: ${result.error.message}`, {
      cause: result.error,
    });
  }
  if (result.status !== 0) {
    const how = result.signal === null ? `exit code ${result.status}` : result.signal;
    throw new EditorError(editor, `it ended with ${how}; the content was left unchanged`);
  }
}

/** What the edit prompts need: answers, where to print, the folder paths are relative to. */
export interface EditIo {
  lines: LineReader;
  out: TextOutput;
  cwd: string;
  env: Env;
  /** stdin is a terminal (EDITOR may take it over). */
  terminal: boolean;
}

/** Undefined when unchanged, unreadable, or the editor failed. */
async function editWithEditor(io: EditIo, choice: EditorChoice, file: string, before: string) {
  io.out.write(`${editorHint(choice, file)}\n`);
  let after: string;
  try {
    // The prompt reads nothing while the editor runs: what is typed then is the editor's.
    io.lines.hold(() => runEditor(choice.command, file, io.terminal));
    after = await readEditFile("the edited file", file, io.cwd);
  } catch (error) {
    if (!isEditorError(error) && !isInputFileError(error)) throw error;
    const unchanged = isInputFileError(error) ? "; the content was left unchanged" : "";
    io.out.write(`${error.message}${unchanged}\n`);
    return undefined;
  }
  if (after.trim() === before.trim()) {
    io.out.write("The content was left unchanged: nothing to save.\n");
    return undefined;
  }
  return after;
}

const FILE_QUESTION = (file: string) =>
  `Edit ${file} in your editor, save, then press Enter to load it ` +
  "(or type q to cancel, or the path of another file to load): ";

/** The text from the file once the reviewer says so; undefined to cancel, null at end of input. */
async function editInFile(io: EditIo, file: string, before: string) {
  for (;;) {
    const answer = await askLine(io, FILE_QUESTION(file));
    if (answer === undefined) return null;
    const given = answer.trim();
    if (given.toLowerCase() === "q") return undefined;
    try {
      const text = await readEditFile("content file", given === "" ? file : given, io.cwd);
      if (text.trim() !== before.trim()) return text;
      io.out.write("The file is unchanged: save your edit first.\n");
    } catch (error) {
      if (!isInputFileError(error)) throw error;
      io.out.write(`${error.message}\n`);
    }
  }
}

/** A string, undefined when cancelled or left unchanged, null when the input ended. */
export async function editContent(
  io: EditIo,
  before: string,
  extension: string,
): Promise<string | null | undefined> {
  const folder = mkdtempSync(join(tmpdir(), "evalgate-edit-"));
  const file = join(folder, `content.${extension}`);
  try {
    writeFileSync(file, before.endsWith("\n") ? before : `${before}\n`, {
      encoding: "utf8",
      mode: 0o600,
    });
    const choice = chosenEditor(io.env, io.terminal);
    return choice === undefined
      ? await editInFile(io, file, before)
      : await editWithEditor(io, choice, file, before);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
