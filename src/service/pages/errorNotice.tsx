/**
 * An error as a reviewer reads it: the words first, as a sentence, and the code (to look up in
 * docs/errors.md) and the field at fault only in a small details line under them.
 */
import type { ErrorBody } from "../errorResponse.js";

/** A message's trailing `[CODE]`, which the JSON API keeps and the pages move to the details. */
const TRAILING_CODE = /\s*\[[A-Z][A-Z0-9_]*\]$/;

/** The message as a sentence: without its code, its first letter capital, ending in a stop. */
export function errorWords(message: string): string {
  const words = message.replace(TRAILING_CODE, "").trim();
  if (words === "") return "Something went wrong.";
  const sentence = `${words[0]?.toUpperCase() ?? ""}${words.slice(1)}`;
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** "Details: INVALID_INPUT, field content." */
export function errorDetailsLine(error: ErrorBody["error"]): string {
  const field = error.field === undefined ? "" : `, field ${error.field}`;
  return `Details: ${error.code}${field}.`;
}

/** The words, then the details line. */
export function ErrorNotice(props: { error: ErrorBody["error"]; lead?: string; id?: string }) {
  const { error } = props;
  return (
    <>
      <p class="error-words" id={props.id}>
        {props.lead === undefined
          ? errorWords(error.message)
          : `${props.lead} ${errorWords(error.message)}`}
      </p>
      <p class="muted error-details">{errorDetailsLine(error)}</p>
    </>
  );
}
