/**
 * Editing content in the reviewer's own editor ($EDITOR): the content goes into a temporary file,
 * the editor runs on the terminal until it exits, and the file's text comes back.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EditorError } from "../errors.js";

/**
 * Opens `text` in `editor` (a command, optionally with arguments: "code --wait") on a temporary
 * file named `content.<extension>` and returns what the file holds when the editor exits.
 */
export function editText(editor: string, text: string, extension: string): string {
  const [command, ...args] = editor.trim().split(/\s+/);
  if (command === undefined || command === "") throw new EditorError(editor, "EDITOR is empty");
  const folder = mkdtempSync(join(tmpdir(), "evalgate-edit-"));
  const file = join(folder, `content.${extension}`);
  try {
    writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`, "utf8");
    const result = spawnSync(command, [...args, file], { stdio: "inherit" });
    if (result.error !== undefined) {
      throw new EditorError(editor, `cannot start it: ${result.error.message}`, {
        cause: result.error,
      });
    }
    if (result.status !== 0) {
      const how = result.signal === null ? `exit code ${result.status}` : result.signal;
      throw new EditorError(editor, `it ended with ${how}; the content was left unchanged`);
    }
    return readFileSync(file, "utf8");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
