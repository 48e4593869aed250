/**
 * A URL given where a SQLite file (or its folder) goes, refused before anything is opened: taken as
 * a path (`postgres://u:p@h/db` becomes `postgres:/u:p@h/db`) it would be shown with its password.
 */
import { redactSecretText } from "../redact.js";
import { CliError } from "./errors.js";

/** `scheme://…` (two letters or more, so a drive such as `C:` is a path): a URL, never a file. */
const URL_SCHEME = /^[a-z][a-z0-9+.-]{1,31}:\/\//i;

/** Refuses a URL as `option`'s file, naming the option, with the URL repeated redacted. */
export function refuseUrlAsFile(
  value: string | undefined,
  option: { name: string; takes: string; instead?: string },
): void {
  const given = value?.trim();
  if (given === undefined || !URL_SCHEME.test(given)) return;
  const instead = option.instead ?? "give a PostgreSQL database with --database-url <url>";
  throw new CliError(
    `${option.name} takes ${option.takes}, not a URL (${redactSecretText(given)}): ${instead}`,
  );
}
