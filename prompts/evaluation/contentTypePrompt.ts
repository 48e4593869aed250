/** Guidance added to the judge's system prompt for one kind of proposal content. */
export interface ContentTypePrompt {
  /** The content type id (snake_case), as used in config/evaluation/criteria/{contentType}.json. */
  contentType: string;
  /** What the content is, in words ("the budget section"). */
  label: string;
  /** What to look for in this kind of content. */
  guidance: string;
}
