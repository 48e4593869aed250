/** Looking at this machine's files for the programs the tests use (PostgreSQL, Chromium). */
import { accessSync, constants, readdirSync, statSync } from "node:fs";

/** True for a file (symlinks followed) that this process may execute. */
export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The names in a folder; none when it is missing or cannot be read. */
export function folderEntries(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
