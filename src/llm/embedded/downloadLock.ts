/**
 * One download at a time per model file across processes: a lock file created with `wx`, touched
 * by its holder; one whose process is gone or untouched for `staleMs` is taken over.
 */
import { open, readFile, stat, unlink, utimes } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

export interface HeldLock {
  touch(): Promise<void>;
  release(): Promise<void>;
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const pid = Number.parseInt(text.split("\n")[0] ?? "", 10);
    if (!processAlive(pid)) return true;
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    return false; // gone already, or being written: not stale, try again
  }
}

export async function tryLock(path: string, staleMs: number): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(`${process.pid}\n${new Date().toISOString()}\n`);
      await handle.close();
      let held = true;
      return {
        touch: async () => {
          const now = new Date();
          await utimes(path, now, now).catch(() => {});
        },
        // Once only: a second release must not remove the lock another run took since.
        release: async () => {
          if (!held) return;
          held = false;
          await unlink(path).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (attempt === 0 && (await isStale(path, staleMs))) {
        await unlink(path).catch(() => {});
        continue;
      }
      return undefined;
    }
  }
  return undefined;
}

export async function waitForUnlock(
  path: string,
  options: { staleMs: number; intervalMs?: number; signal?: AbortSignal },
): Promise<void> {
  const interval = options.intervalMs ?? 250;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      await stat(path);
    } catch {
      return;
    }
    if (await isStale(path, options.staleMs)) return;
    await delay(interval);
  }
}
