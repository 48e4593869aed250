/**
 * The note kept beside a model file once its SHA-256 matched (digest, size, mtime), so later runs
 * need not hash it again.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A verified file is recorded beside it (digest, size, mtime) so later runs need not re-hash. */
export async function isVerified(path: string, sha256: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const info = await stat(path);
  try {
    const note = JSON.parse(await readFile(`${path}.verified`, "utf8")) as Record<string, unknown>;
    if (note.sha256 === sha256 && note.size === info.size && note.mtimeMs === info.mtimeMs) {
      return true;
    }
  } catch {
    // no note, or an unreadable one: hash the file
  }
  if ((await sha256Of(path)) !== sha256) return false;
  await writeVerifiedNote(path, sha256);
  return true;
}

export async function writeVerifiedNote(path: string, sha256: string): Promise<void> {
  const info = await stat(path);
  await writeFile(
    `${path}.verified`,
    JSON.stringify({ sha256, size: info.size, mtimeMs: info.mtimeMs }),
  );
}
