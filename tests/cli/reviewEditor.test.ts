/**
 * Editing content in the terminal review: which editor is the reviewer's (EVALGATE_EDITOR,
 * VISUAL, EDITOR only when npm did not set it), the one line that says how to hand the edit back,
 * a real editor (a small node script that rewrites the file), and the file flow without an
 * editor: the path printed, the test edits the file like a reviewer would, then Enter loads it.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startedByNpm } from "../../src/cli/context.js";
import { EditorError } from "../../src/cli/errors.js";
import { chosenEditor, editContent, editorHint, runEditor } from "../../src/cli/review/editor.js";
import { createLineReader } from "../../src/cli/review/input.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-editor-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Output that a test can wait on. */
function watchedOutput() {
  let text = "";
  const waiting: Array<() => void> = [];
  return {
    write(chunk: string) {
      text += chunk;
      for (const wake of waiting.splice(0)) wake();
    },
    text: () => text,
    /** Resolves with the first match of `pattern` once the output has it. */
    async until(pattern: RegExp): Promise<RegExpMatchArray> {
      for (;;) {
        const match = text.match(pattern);
        if (match !== null) return match;
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
  };
}

function session(env: Record<string, string>, terminal = false) {
  const input = new PassThrough();
  const out = watchedOutput();
  const io = { lines: createLineReader(input), out, cwd: dir, env, terminal };
  return { input, out, io };
}

/** A node script used as an editor: it writes `text` into the file it is given and records the path. */
async function scriptEditor(name: string, text: string): Promise<{ command: string; log: string }> {
  const script = join(dir, `${name}.mjs`);
  const log = join(dir, `${name}.path`);
  await writeFile(
    script,
    [
      'import { writeFileSync } from "node:fs";',
      `writeFileSync(process.argv[2], ${JSON.stringify(text)});`,
      `writeFileSync(${JSON.stringify(log)}, process.argv[2]);`,
    ].join("\n"),
    "utf8",
  );
  return { command: `${process.execPath} ${script}`, log };
}

describe("chosenEditor", () => {
  it("takes EVALGATE_EDITOR, then VISUAL, then EDITOR", () => {
    const all = { EVALGATE_EDITOR: "mine", VISUAL: "code --wait", EDITOR: "nano" };
    expect(chosenEditor(all, true)).toEqual({ command: "mine", source: "EVALGATE_EDITOR" });
    expect(chosenEditor({ VISUAL: "code --wait", EDITOR: "nano" }, true)).toEqual({
      command: "code --wait",
      source: "VISUAL",
    });
    expect(chosenEditor({ EDITOR: "nano" }, true)).toEqual({ command: "nano", source: "EDITOR" });
  });

  it("ignores EDITOR under npm or npx (they set it to vi), and off a terminal", () => {
    for (const npm of [
      { npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js" },
      { npm_command: "exec" },
      { npm_lifecycle_event: "npx" },
    ]) {
      expect(startedByNpm(npm)).toBe(true);
      expect(chosenEditor({ EDITOR: "vi", ...npm }, true)).toBeUndefined();
      // The reviewer's own choice still counts under npm.
      expect(chosenEditor({ EDITOR: "vi", VISUAL: "emacs", ...npm }, true)?.command).toBe("emacs");
    }
    expect(startedByNpm({ npm_command: "  " })).toBe(false);
    expect(chosenEditor({ EDITOR: "nano" }, false)).toBeUndefined();
    expect(chosenEditor({ VISUAL: "code --wait" }, false)?.source).toBe("VISUAL");
  });

  it("ignores editors set to nothing but whitespace", () => {
    expect(chosenEditor({ EVALGATE_EDITOR: " ", VISUAL: "\t", EDITOR: "" }, true)).toBeUndefined();
  });
});

describe("editorHint", () => {
  it("says how to save and quit vi, nano and emacs, and names the file and the variable", () => {
    const vi = editorHint({ command: "/usr/bin/vi", source: "EDITOR" }, "/tmp/x/content.md");
    expect(vi).toContain("Opening /tmp/x/content.md in vi (EDITOR)");
    expect(vi).toContain(":wq");
    expect(vi).toContain(":q!");
    expect(editorHint({ command: "nano -w", source: "VISUAL" }, "f")).toContain("Ctrl-X");
    expect(editorHint({ command: "emacs", source: "VISUAL" }, "f")).toContain("Ctrl-X Ctrl-C");
    const other = editorHint({ command: "code --wait", source: "EVALGATE_EDITOR" }, "f");
    expect(other).toBe(
      "Opening f in code (EVALGATE_EDITOR): save and quit to use your edit; leave it unchanged to keep the content.",
    );
  });
});

describe("runEditor", () => {
  it("reports an editor that fails or cannot be started", () => {
    const file = join(dir, "untouched.md");
    expect(() => runEditor(`${process.execPath} -e process.exit(3)`, file, false)).toThrow(
      /ended with exit code 3; the content was left unchanged/,
    );
    expect(() => runEditor(join(dir, "no-such-editor"), file, false)).toThrow(EditorError);
    expect(() => runEditor("   ", file, false)).toThrow(EditorError);
  });

  it("runs an editor whose path has spaces: quoted, with its arguments, or the whole setting", async () => {
    await mkdir(join(dir, "my editors"), { recursive: true });
    const script = join(dir, "my editors", "append.mjs");
    await writeFile(
      script,
      'import { appendFileSync } from "node:fs";\nconst args = process.argv.slice(2);\nappendFileSync(args.at(-1), args.slice(0, -1).join("|") + "\\n");\n',
    );
    const file = join(dir, "spaced.md");
    await writeFile(file, "");
    runEditor(`"${process.execPath}" '${script}' --wait "a b"`, file, false);
    expect(await readFile(file, "utf8")).toBe("--wait|a b\n");
    const unquoted = join(dir, "my editors", "edit");
    await writeFile(unquoted, `#!${process.execPath}\n${await readFile(script, "utf8")}`, {
      mode: 0o755,
    });
    runEditor(unquoted, file, false);
    expect(await readFile(file, "utf8")).toBe("--wait|a b\n\n");
    const hint = editorHint({ command: `'${unquoted}' -w`, source: "VISUAL" }, "f");
    expect(hint).toContain("Opening f in edit (VISUAL)");
  });
});

describe("editContent", () => {
  it("runs VISUAL on a private file after one line saying how, returns the edit and removes the file", async () => {
    const editor = await scriptEditor("visual", "Edited in VISUAL\n");
    const { out, io } = session({ VISUAL: editor.command, EDITOR: "vi", npm_command: "exec" });
    const edited = await editContent(io, "Before", "md");
    expect(edited).toBe("Edited in VISUAL\n");
    const path = await readFile(editor.log, "utf8");
    expect(path).toMatch(/evalgate-edit-[^/\\]+[/\\]content\.md$/);
    expect(existsSync(path)).toBe(false);
    expect(out.text()).toBe(
      `Opening ${path} in node (VISUAL): save and quit to use your edit; leave it unchanged to keep the content.\n`,
    );
  });

  it("keeps the content when the editor leaves the file unchanged, empty, too large or binary, or fails", async () => {
    const same = await scriptEditor("same", "Before\n");
    const { out: sameOut, io: sameIo } = session({ EVALGATE_EDITOR: same.command });
    expect(await editContent(sameIo, "Before", "md")).toBeUndefined();
    expect(sameOut.text()).toContain("The content was left unchanged: nothing to save.\n");
    for (const [name, text, why] of [
      ["empty", "  \n", "the file is empty"],
      ["nul", "Budget\u0000table\n", "contains NUL bytes"],
      ["huge", "x".repeat(1024 * 1024 + 1), "over the limit of 1,048,576 bytes"],
    ] as const) {
      const editor = await scriptEditor(name, text);
      const { out, io } = session({ EVALGATE_EDITOR: editor.command });
      expect(await editContent(io, "Before", "md"), name).toBeUndefined();
      expect(out.text(), name).toMatch(/the edited file \S*content\.md/);
      expect(out.text(), name).toContain(why);
      expect(out.text(), name).toContain("; the content was left unchanged\n");
    }
    const { out, io } = session({ EVALGATE_EDITOR: `${process.execPath} -e process.exit(4)` });
    expect(await editContent(io, "Before", "md")).toBeUndefined();
    expect(out.text()).toContain("ended with exit code 4; the content was left unchanged");
  });

  it("under npx (EDITOR=vi set by npm) writes the file, says to edit it and press Enter, and loads it", async () => {
    const vi = await scriptEditor("npm-vi", "vi must not run\n");
    const { input, out, io } = session(
      { EDITOR: vi.command, npm_lifecycle_event: "npx", npm_command: "exec" },
      true,
    );
    const editing = editContent(io, '{ "funder": "Calder Bay" }', "json");
    const [, file] = await out.until(
      /^Edit (\S+) in your editor, save, then press Enter to load it \(or type q to cancel, or the path of another file to load\): $/m,
    );
    if (file === undefined) throw new Error("no path in the question");
    expect(file).toMatch(/content\.json$/);
    // What the file holds to start with: the content as it is.
    expect(await readFile(file, "utf8")).toBe('{ "funder": "Calder Bay" }\n');
    // Enter before saving: the file is unchanged, asked again.
    input.write("\n");
    await out.until(/The file is unchanged: save your edit first\.\n/);
    await writeFile(file, '{ "funder": "Edited Foundation" }\n', "utf8");
    input.write("\n");
    expect(await editing).toBe('{ "funder": "Edited Foundation" }\n');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(vi.log)).toBe(false);
  });

  it("in the file flow: q cancels, a path loads that file, an empty or missing file is asked again, the end of input is null", async () => {
    await writeFile(join(dir, "other.md"), "From another file\n", "utf8");
    await writeFile(join(dir, "blank.md"), "\n\n", "utf8");
    const load = session({});
    load.input.end("missing.md\nblank.md\nother.md\n");
    expect(await editContent(load.io, "Before", "md")).toBe("From another file\n");
    expect(load.out.text()).toContain("content file missing.md: no such file\n");
    expect(load.out.text()).toContain("content file blank.md: the file is empty\n");

    const cancel = session({});
    cancel.input.end("Q\n");
    expect(await editContent(cancel.io, "Before", "md")).toBeUndefined();

    const ended = session({});
    ended.input.end("");
    expect(await editContent(ended.io, "Before", "md")).toBeNull();
  });
});
