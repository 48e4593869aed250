/** `evalgate reviewers add | list | revoke`: the reviewers of the review service and their tokens. */
import { isEvalgateError, withErrorCode } from "../../errors.js";
import { quotedId } from "../../graph/reviewInput.js";
import type { ReviewStore } from "../../store/reviewStore.js";
import { hashToken, newReviewerToken } from "../../store/tokens.js";
import type { CliContext } from "../context.js";
import { evalgateCommand } from "../context.js";
import { CliError } from "../errors.js";
import { renderColumns } from "../review/display.js";
import { describeStore, type StoreFlags, storeOfFlags, withReviewStore } from "../review/store.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/;

async function withStore<T>(
  flags: StoreFlags,
  context: CliContext,
  work: (store: ReviewStore, where: string) => Promise<T>,
): Promise<T> {
  const location = storeOfFlags(flags, context.env, context.cwd);
  return withReviewStore(location, (store) => work(store, describeStore(location, context.cwd)));
}

export async function addReviewer(
  name: string,
  options: StoreFlags & { role: "reviewer" | "admin" },
  context: CliContext,
): Promise<void> {
  if (!NAME.test(name)) {
    throw new CliError(
      `${quotedId(name)} is not a reviewer name: use up to 100 letters, digits and . _ - @, starting with a letter or digit`,
    );
  }
  const token = newReviewerToken();
  await withStore(options, context, async (store, where) => {
    try {
      await store.addReviewer(name, options.role, hashToken(token));
    } catch (error) {
      if (isEvalgateError(error, "REVIEWER_EXISTS"))
        throw new CliError(withErrorCode(error.message, error.code));
      throw error;
    }
    context.stdout.write(
      `Added ${options.role} ${name} to ${where}. The token, shown only this once:\n\n  ${token}\n\n` +
        "Sign in with it on the review pages, or send it as `Authorization: Bearer <token>`.\n",
    );
  });
}

export async function listReviewers(options: StoreFlags & { json?: boolean }, context: CliContext) {
  await withStore(options, context, async (store, where) => {
    const rows = await store.reviewers();
    if (options.json === true) {
      const reviewers = rows.map(({ name, role, createdAt, revokedAt }) => ({
        name,
        role,
        createdAt,
        revokedAt,
      }));
      context.stdout.write(`${JSON.stringify({ store: where, reviewers }, null, 2)}\n`);
      return;
    }
    if (rows.length === 0) {
      context.stdout.write(
        `No reviewers in ${where}: add one with \`${evalgateCommand(context.env)} reviewers add <name>\`.\n`,
      );
      return;
    }
    const table = rows.map((r) => [r.name, r.role, r.createdAt, r.revokedAt ?? "active"]);
    context.stdout.write(
      `${renderColumns(["name", "role", "added", "revoked"], table).join("\n")}\n`,
    );
  });
}

export async function revokeReviewer(name: string, options: StoreFlags, context: CliContext) {
  await withStore(options, context, async (store, where) => {
    const reviewer = await store.reviewerByName(name);
    if (reviewer === undefined)
      throw new CliError(`no reviewer named ${quotedId(name)} in ${where}`);
    if (!(await store.revokeReviewer(name))) {
      throw new CliError(`${name}'s token was revoked already (${reviewer.revokedAt})`);
    }
    context.stdout.write(`Revoked ${name}: the token no longer signs in.\n`);
  });
}
