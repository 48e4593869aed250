/** An error as a reviewer reads it: a sentence, then the code and field in a small details line. */
import type { ErrorBody } from "../errorResponse.js";

/** The message as a sentence, without the trailing `[CODE]` the JSON API keeps. */
function errorWords(message: string): string {
  const words = message.replace(/\s*\[[A-Z][A-Z0-9_]*\]$/, "").trim();
  if (words === "") return "Something went wrong.";
  const sentence = `${words[0]?.toUpperCase() ?? ""}${words.slice(1)}`;
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

export function ErrorNotice(props: { error: ErrorBody["error"]; lead?: string; id?: string }) {
  const { error } = props;
  const field = error.field === undefined ? "" : `, field ${error.field}`;
  return (
    <>
      <p class="error-words" id={props.id}>
        {props.lead === undefined
          ? errorWords(error.message)
          : `${props.lead} ${errorWords(error.message)}`}
      </p>
      <p class="muted error-details">{`Details: ${error.code}${field}.`}</p>
    </>
  );
}
