/** The start form's post as the body `POST /api/proposals` takes: each text from its area or its file. */
import { MAX_TEXT_CHARS, type StartProposal, StartProposalSchema } from "../../desk/requests.js";
import { ServiceRequestError } from "../errors.js";
import { requireValid } from "../validation.js";
import { type CheckedForm, unixLines } from "./pageSession.js";
import type { StartProposalValues } from "./startProposalForm.js";

export const START_FILE_FIELDS = ["rfpFile", "applicantFile"] as const;

/** A file's most bytes: the most characters, at up to four bytes each in UTF-8. */
const MAX_FILE_BYTES = MAX_TEXT_CHARS * 4;

const WHAT = { rfp: "the request for proposals", applicant: "the applicant" } as const;

const refused = (message: string, field: string) =>
  new ServiceRequestError("INVALID_INPUT", message, field);

async function fileText(file: File, field: keyof typeof WHAT): Promise<string> {
  const what = `the file of ${WHAT[field]} (${file.name})`;
  if (file.size > MAX_FILE_BYTES) {
    throw refused(
      `${what} is larger than ${MAX_FILE_BYTES.toLocaleString("en")} bytes`,
      `${field}File`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    text = "\u0000";
  }
  if (text.includes("\u0000")) {
    const choose = "choose a UTF-8 text or Markdown file, or paste the text";
    throw refused(`${what} is not a text file: ${choose}`, `${field}File`);
  }
  return text.replace(/^\uFEFF/, "");
}

/** The text of a field: its file when one was chosen, else its text area; never both. */
async function textOf(form: CheckedForm, field: keyof typeof WHAT): Promise<string> {
  const typed = (form.fields[field] ?? "").trim();
  const file = form.files[`${field}File`];
  const chosen = file !== undefined && (file.size > 0 || file.name !== "");
  if (chosen && typed !== "")
    throw refused(`give ${WHAT[field]} as text or as a file, not both`, field);
  const text = chosen ? unixLines(await fileText(file, field)).trim() : typed;
  if (text === "") throw refused(`${WHAT[field]} is missing: paste it, or choose its file`, field);
  return text;
}

/** To fill the form in again after a refusal (files must be chosen again). */
export function typedValues(form: CheckedForm): StartProposalValues {
  const { title, rfp, applicant } = form.fields;
  return { title, rfp, applicant };
}

export async function startProposalOf(form: CheckedForm): Promise<StartProposal> {
  const title = (form.fields.title ?? "").trim();
  const body = {
    rfp: await textOf(form, "rfp"),
    applicant: await textOf(form, "applicant"),
    ...(title === "" ? {} : { title }),
  };
  return requireValid(StartProposalSchema.safeParse(body), "the proposal");
}
