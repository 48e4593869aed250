import { type Catalog, CatalogSchema } from "./model.js";

const band = (
  excellent: string,
  good: string,
  adequate: string,
  poor: string,
  inadequate: string,
) => ({
  excellent,
  good,
  adequate,
  poor,
  inadequate,
});

const DEFAULT_CRITERIA = [
  {
    id: "relevance",
    title: "Relevance to the request",
    description:
      "Does the content address what the funder's request for proposals asks for in this part of the proposal?",
    weight: 0.3,
    critical: true,
    passingThreshold: 0.6,
    method: {
      kind: "score",
      scale: { min: 0, max: 1 },
      guidelines: band(
        "Addresses every requirement the request sets for this part, explicitly and in the funder's terms.",
        "Addresses the main requirements; one minor requirement is implicit or thin.",
        "Addresses the topic but leaves at least one stated requirement unanswered.",
        "Mostly generic; the link to the request has to be guessed.",
        "Does not address what the request asks for.",
      ),
    },
  },
  {
    id: "evidence",
    title: "Evidence and specificity",
    description:
      "Are claims supported by specific facts, figures, sources or examples rather than general assertions?",
    weight: 0.3,
    method: {
      kind: "score",
      scale: { min: 0, max: 1 },
      guidelines: band(
        "Every significant claim carries a figure, source or concrete example.",
        "Most claims are supported; a few are general.",
        "Some support, but key claims rest on assertion.",
        "Little support; figures appear without sources.",
        "No supporting evidence at all.",
      ),
    },
  },
  {
    id: "clarity",
    title: "Clarity and structure",
    description: "Is the content clearly organised and easy for a reviewer to follow?",
    weight: 0.2,
    method: {
      kind: "score",
      scale: { min: 0, max: 1 },
      guidelines: band(
        "Logical order, clear headings or paragraphs, no ambiguity.",
        "Clear overall with minor lapses in order or wording.",
        "Understandable but disorganised in places.",
        "Hard to follow; the reader must reconstruct the argument.",
        "Incoherent.",
      ),
    },
  },
  {
    id: "completeness",
    title: "Completeness",
    description:
      "Is the content complete, with no missing parts, placeholders or unfinished passages?",
    weight: 0.2,
    method: {
      kind: "score",
      scale: { min: 0, max: 1 },
      guidelines: band(
        "Complete; nothing a reviewer would expect is missing.",
        "One minor element is missing.",
        "Several elements are missing or sketched.",
        "Large parts are missing.",
        "A fragment or placeholder.",
      ),
    },
  },
];

/** Used only when a content type has no criteria file at all; an invalid file is an error instead. */
export function defaultCatalog(contentType: string): Catalog {
  return CatalogSchema.parse({
    id: `default_${contentType}`,
    name: `Default criteria for ${contentType}`,
    version: "1.0.0",
    description: "General proposal-quality criteria, used when no criteria file exists.",
    passingThreshold: 0.7,
    criteria: DEFAULT_CRITERIA,
  });
}
