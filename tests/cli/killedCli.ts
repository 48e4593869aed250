/**
 * The real `evalgate` command in a process that SIGKILLs itself at one checkpoint write, for
 * reviewKilled.test.ts. Run with `node --import tsx tests/cli/killedCli.ts <boundary> <args…>`,
 * where `<args…>` are evalgate's arguments and `<boundary>` is one of
 *
 *   put:<n>                the n-th checkpoint (`put`) is about to be written;
 *   putWrites:<node>       the writes of a task of <node> are about to be written;
 *   putAfter:<node>        the writes of <node> are written, the next checkpoint is about to be.
 *
 * Only the storage boundary is touched: the SQLite saver's `put` and `putWrites`, wrapped on its
 * prototype before the command loads, send SIGKILL to this process at that point, so nothing
 * after it happens — the state a kill -9 at that instant leaves. Everything else is the command
 * as users run it (the model is the Ollama-protocol test server at OLLAMA_BASE_URL).
 */
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

class KilledCliUsageError extends Error {
  override readonly name = "KilledCliUsageError";
}

const [boundary = "", ...args] = process.argv.slice(2);
const [call, target = ""] = boundary.split(":");
if (!["put", "putWrites", "putAfter"].includes(call ?? "") || target === "") {
  throw new KilledCliUsageError(
    "usage: killedCli.ts put:<n>|putWrites:<node>|putAfter:<node> <args…>",
  );
}

/** Dies now: SIGKILL to itself, and the thread blocked until it lands. */
function die(): never {
  process.kill(process.pid, "SIGKILL");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  throw new KilledCliUsageError("SIGKILL did not end the process");
}

const ofTarget = (taskPath: unknown) =>
  typeof taskPath === "string" && taskPath.endsWith(`, ${target}`);

let puts = 0;
let targetWritten = false;
const put = SqliteSaver.prototype.put;
const putWrites = SqliteSaver.prototype.putWrites;

SqliteSaver.prototype.put = function (this: SqliteSaver, ...rest: Parameters<typeof put>) {
  puts += 1;
  if (call === "put" && puts === Number(target)) die();
  if (call === "putAfter" && targetWritten) die();
  return put.apply(this, rest);
};

SqliteSaver.prototype.putWrites = function (
  this: SqliteSaver,
  ...rest: Parameters<typeof putWrites>
) {
  // LangGraph passes the task's path (`~__pregel_pull, <node>`) after the task id.
  const mine = ofTarget((rest as unknown[])[3]);
  if (call === "putWrites" && mine) die();
  const written = putWrites.apply(this, rest);
  if (call === "putAfter" && mine) {
    void written.then(() => {
      targetWritten = true;
    });
  }
  return written;
};

const { main } = await import("../../src/cli/main.js");
const code = await main(args);
process.stdout.write("", () => process.exit(code));
