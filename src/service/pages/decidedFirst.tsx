/**
 * The page of a decision that came too late (409): someone decided the review first, or it is no
 * longer waiting. It says who decided what and when, that this decision was not recorded, and
 * where to go: the proposal's history (what was decided) and the next review waiting for this
 * reviewer (or the queue when none is).
 */
import type { ReviewListItem } from "../../orchestrator/reviewDesk.js";
import { decisionName, stageName } from "../statusWords.js";
import { Layout } from "./layout.js";
import { Time } from "./time.js";

export interface DecidedFirstProps {
  reviewer: string;
  csrf: string;
  threadId: string;
  /** The proposal's title, when the thread could be read. */
  title?: string | undefined;
  /** The stage the review was about, when the history says. */
  stage?: string | undefined;
  /** Who decided the review, when and how; unknown when nobody did (the review moved on). */
  decided?: { by: string; at: string; action: string } | undefined;
  /** The review waiting for this reviewer at the top of their queue. */
  next?: ReviewListItem;
}

function heading(props: DecidedFirstProps): string {
  if (props.decided === undefined) return "This review is no longer waiting for a decision";
  return props.decided.by === props.reviewer
    ? "You decided this review already"
    : "Someone decided this review first";
}

function WhatHappened(props: DecidedFirstProps) {
  const { decided } = props;
  const stage = props.stage === undefined ? "it" : stageName(props.stage);
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
  const threadHref = `/threads/${encodeURIComponent(props.threadId)}#decisions`;
  const { next } = props;
  return (
    <Layout title="Decided already" reviewer={props.reviewer} csrf={props.csrf}>
      <section class="notice" id="decided-first">
        <h1>{heading(props)}</h1>
        <WhatHappened {...props} />
        <ul class="next-steps">
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
