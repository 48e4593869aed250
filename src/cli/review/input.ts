/** Answers read line by line from stdin, queued so that piped answers serve one question each. */
import { createInterface } from "node:readline";

export interface LineReader {
  /** The next line without its line break, or undefined when the input ended or was cancelled. */
  next(): Promise<string | undefined>;
  readonly ended: boolean;
  /** Runs `during` with nothing read from the input meanwhile (another program has the terminal). */
  hold<T>(during: () => T): T;
  close(): void;
}

export function createLineReader(input: NodeJS.ReadableStream, signal?: AbortSignal): LineReader {
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  const reader = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });

  const end = () => {
    if (ended) return;
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  };
  reader.on("line", (line: string) => {
    const resolve = waiting.shift();
    if (resolve === undefined) lines.push(line);
    else resolve(line);
  });
  reader.on("close", end);
  // Cancelled: the answers still queued are dropped too.
  const cancel = () => {
    lines.length = 0;
    end();
  };
  signal?.addEventListener("abort", cancel, { once: true });
  if (signal?.aborted === true) cancel();

  return {
    next() {
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    get ended() {
      return ended && lines.length === 0;
    },
    hold(during) {
      if (ended) return during();
      reader.pause();
      try {
        return during();
      } finally {
        reader.resume();
      }
    },
    close() {
      signal?.removeEventListener("abort", cancel);
      reader.close();
    },
  };
}

export interface QuestionIo {
  lines: LineReader;
  out: { write(text: string): unknown };
  terminal: boolean;
}

/** Undefined at the end of the input; the answer is echoed off a terminal, so a log reads well. */
export async function askLine(io: QuestionIo, question: string): Promise<string | undefined> {
  io.out.write(question);
  const line = await io.lines.next();
  if (!io.terminal) io.out.write(line === undefined ? "\n" : `${line}\n`);
  return line;
}
