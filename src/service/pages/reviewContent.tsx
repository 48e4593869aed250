/** The content under review, whole and readable. */

import type { ReviewDetail } from "../../desk/answers.js";
import { contentForm } from "../../graph/contentFields.js";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { readUntrustedJson } from "../../untrusted/json.js";
import { MarkdownText, StructuredContent } from "./contentView.js";
import { reviewContentType } from "./structuredEdit.js";

function Body(props: { review: ReviewDetail }) {
  const { review } = props;
  if (review.content.trim() === "") return <p class="muted">No content (nothing was written).</p>;
  const type = reviewContentType(review);
  if (type === undefined) return <MarkdownText text={review.content} />;
  const read = readUntrustedJson(review.content, { maxDepth: REVIEW_LIMITS.editJsonDepth });
  if (!read.ok) return <pre class="code">{review.content}</pre>;
  return <StructuredContent form={contentForm(type, read.value)} itemName={type.itemName} />;
}

export function ReviewContent(props: { review: ReviewDetail }) {
  return (
    <section id="content" data-content-kind={props.review.contentKind}>
      <h2>The content</h2>
      <Body review={props.review} />
    </section>
  );
}
