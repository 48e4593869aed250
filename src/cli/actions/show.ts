import { resolve } from "node:path";
import { isDeskError } from "../../desk/errors.js";
import type { CliContext } from "../context.js";
import { displayPath } from "../context.js";
import { CliError } from "../errors.js";
import {
  formatOfPath,
  type ProposalFormat,
  refuseExistingOut,
  renderProposal,
  writeNewFile,
} from "../outputFile.js";
import { cliReviewer, openCliDesk } from "../review/deskPath.js";
import { checkedThreadArg } from "../review/reviewArgs.js";
import {
  describeStore,
  refuseMissingStore,
  type StoreFlags,
  storeOfFlags,
} from "../review/store.js";

export interface ShowCommandOptions extends StoreFlags {
  /** Given: this format; else the --out file's extension chooses, else Markdown. */
  format?: ProposalFormat;
  out?: string;
}

export async function runShow(
  threadId: string,
  options: ShowCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  checkedThreadArg(threadId);
  if (options.out !== undefined) refuseExistingOut(options.out, cwd);
  const store = storeOfFlags(options, env, cwd);
  const where = describeStore(store, cwd);
  refuseMissingStore(store, threadId, cwd);
  const desk = await openCliDesk({ store, env, cwd });
  try {
    const document = await desk
      .threadProposal(threadId, cliReviewer(undefined))
      .catch((error: unknown) => {
        if (isDeskError(error) && error.code === "THREAD_NOT_FOUND") {
          throw new CliError(`no thread "${threadId}" in ${where}`, { cause: error });
        }
        throw error;
      });
    const format = options.format ?? (options.out === undefined ? "md" : formatOfPath(options.out));
    const text = await renderProposal(document, format);
    if (options.out === undefined) context.stdout.write(text);
    else {
      const written = await writeNewFile(resolve(cwd, options.out), text, "refuse");
      const what = document.state === "draft" ? "the draft of the proposal" : "the proposal";
      context.stdout.write(
        `${what} of thread ${threadId} written to ${displayPath(written, cwd)}\n`,
      );
    }
  } finally {
    await desk.close();
  }
}
