/** What a reviewer can answer a review with: the one vocabulary of the graph, the store and the desk. */
export const REVIEW_ACTIONS = ["approve", "revise", "edit", "retry"] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];
