/**
 * The form that starts a proposal from the pages (each text pasted or chosen as a file), and its
 * post read as the body `POST /api/proposals` takes.
 */
import { MAX_TEXT_CHARS, type StartProposal, StartProposalSchema } from "../../desk/requests.js";
import { type ErrorBody, ServiceRequestError } from "../errors.js";
import { requireValid } from "../validation.js";
import { ErrorNotice } from "./layout.js";
import { type CheckedForm, unixLines } from "./pageSession.js";

/** The file types offered in the file choosers (any text file is read). */
const TEXT_FILES = ".md,.markdown,.txt,text/plain,text/markdown";

export interface StartProposalValues {
  title?: string;
  rfp?: string;
  applicant?: string;
}

function TextOrFile(props: {
  name: "rfp" | "applicant";
  label: string;
  hint: string;
  value: string | undefined;
}) {
  const { name } = props;
  return (
    <fieldset class="text-or-file">
      <legend>{props.label}</legend>
      <p class="muted">{props.hint}</p>
      <label for={`start-${name}`}>Paste it</label>
      <textarea id={`start-${name}`} name={name} rows={6} maxlength={MAX_TEXT_CHARS}>
        {props.value ?? ""}
      </textarea>
      <label for={`start-${name}-file`}>or choose a text or Markdown file</label>
      <input type="file" id={`start-${name}-file`} name={`${name}File`} accept={TEXT_FILES} />
    </fieldset>
  );
}

export function StartProposalForm(props: {
  csrf: string;
  values?: StartProposalValues | undefined;
  error?: ErrorBody["error"] | undefined;
}) {
  const values = props.values ?? {};
  return (
    <section id="start-proposal">
      <h2>Start a proposal</h2>
      {props.error !== undefined ? (
        <div class="alert" role="alert" id="start-error">
          <ErrorNotice error={props.error} lead="The proposal was not started." />
        </div>
      ) : null}
      <form
        method="post"
        action="/proposals"
        enctype="multipart/form-data"
        class="decision"
        id="start-proposal-form"
      >
        <input type="hidden" name="_csrf" value={props.csrf} />
        <label for="start-title">Title (optional: else the request's first line)</label>
        <input
          type="text"
          id="start-title"
          name="title"
          maxlength={200}
          value={values.title ?? ""}
        />
        <TextOrFile
          name="rfp"
          label="The request for proposals"
          hint="What the funder asks for: priorities, eligibility, criteria, amounts, deadlines."
          value={values.rfp}
        />
        <TextOrFile
          name="applicant"
          label="The applicant"
          hint="Who applies: the organisation, its track record, the idea it brings."
          value={values.applicant}
        />
        <p class="muted">
          {`Each at most ${MAX_TEXT_CHARS.toLocaleString("en")} characters. The run writes and judges each stage, and its first review appears in the queue.`}
        </p>
        <p>
          <button type="submit" class="primary">
            Start the proposal
          </button>
        </p>
      </form>
    </section>
  );
}

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
