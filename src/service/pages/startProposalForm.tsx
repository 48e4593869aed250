/** The form that starts a proposal from the pages: each text pasted or chosen as a file. */
import { MAX_TEXT_CHARS } from "../../desk/requests.js";
import type { ErrorBody } from "../errorResponse.js";
import { ErrorNotice } from "./layout.js";

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
