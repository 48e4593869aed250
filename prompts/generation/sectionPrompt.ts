/** One proposal section, written from the research, the solution sought and the connection pairs. */
export const SECTION_TEMPLATE = `Write the "{{section_title}}" section of the proposal.

What this section must do: {{section_description}}

{{rfp}}

{{research}}

{{solution}}

{{connections}}

{{earlier_sections}}

{{revision}}

Write the section in Markdown, starting directly with its text (no title line). Be specific: use the
figures, names and commitments from the material above, and state measurable targets where the section calls for them.`;
