/**
 * The page of a review no longer waiting (409): a decision too late, or a link opened after its
 * time. Who decided what and when, and where to go: the proposal, its history, the next review.
 */
import type { ReviewListItem, ThreadStatus } from "../../desk/answers.js";
import { decisionName, stageName } from "../statusWords.js";
import { Layout, type SignedIn, Time } from "./layout.js";

export interface DecidedFirstProps extends SignedIn {
  threadId: string;
  title?: string | undefined;
  stage?: string | undefined;
  /** Unknown when nobody decided it (the review moved on). */
  decided?: { by: string; at: string; action: string } | undefined;
  /** The review at the top of this reviewer's queue. */
  next?: ReviewListItem;
  status?: ThreadStatus["status"] | undefined;
  /** The review's link was opened (no decision was sent). */
  visited?: boolean;
}

function heading(props: DecidedFirstProps): string {
  if (props.visited === true && props.status === "finished") return "This proposal is finished";
  if (props.visited === true || props.decided === undefined) {
    return "This review is no longer waiting for a decision";
  }
  return props.decided.by === props.reviewer
    ? "You decided this review already"
    : "Someone decided this review first";
}

function WhatHappened(props: DecidedFirstProps) {
  const { decided } = props;
  const stage = props.stage === undefined ? "it" : stageName(props.stage);
  if (props.visited === true) {
    return (
      <p id="review-gone">
        {props.status === "finished"
          ? "Every stage of it was decided, so nothing here waits for a decision. The proposal is ready to read."
          : "It was decided, or the proposal moved on, so nothing here waits for your decision now. Its history shows where it stands."}
      </p>
    );
  }
  if (decided === undefined) {
    return (
      <p>
        The proposal moved on before your decision arrived, so it was not recorded. Its history
        shows where it stands.
      </p>
    );
  }
  const who = decided.by === props.reviewer ? "You" : decided.by;
  return (
    <p id="decided-by">
      <strong>{who}</strong> {decisionName(decided.action)} {stage} at <Time iso={decided.at} />.
      {decided.by === props.reviewer
        ? " This second decision was not recorded."
        : " Your decision was not recorded."}
    </p>
  );
}

export function DecidedFirstPage(props: DecidedFirstProps) {
  const thread = `/threads/${encodeURIComponent(props.threadId)}`;
  const threadHref = `${thread}#decisions`;
  const { next } = props;
  const finished = props.status === "finished";
  return (
    <Layout
      title={props.visited === true ? heading(props) : "Decided already"}
      reviewer={props.reviewer}
      csrf={props.csrf}
    >
      <section class="notice" id="decided-first">
        <h1>{heading(props)}</h1>
        <WhatHappened {...props} />
        <ul class="next-steps">
          <li>
            <a href={`${thread}/proposal`} id="decided-proposal">
              {finished ? "Read the proposal" : "Read the proposal's draft so far"}
            </a>
          </li>
          <li>
            <a href={threadHref} id="decided-thread">
              {props.title === undefined
                ? "See what was decided"
                : `See what was decided on “${props.title}”`}
            </a>
          </li>
          <li>
            {next === undefined ? (
              <a href="/reviews" id="back-to-queue">
                Nothing else is waiting for you: back to the queue
              </a>
            ) : (
              <a href={`/reviews/${encodeURIComponent(next.threadId)}`} id="next-review">
                {`Next review waiting for you: “${next.title}”`}
              </a>
            )}
          </li>
        </ul>
      </section>
    </Layout>
  );
}
