/** Connection pairs: the applicant's capabilities matched to the funder's needs. */
export const CONNECTION_PAIRS_TEMPLATE = `Match what the applicant brings to what the funder needs.

{{solution}}

{{applicant}}

{{revision}}

Answer as one JSON object with a list of pairs, strongest first:
{"pairs": [{"funderNeed": "<a need from the solution sought>", "applicantCapability": "<the applicant's matching capability>",
  "evidence": "<fact from the applicant's information that proves it>", "strength": "strong" | "moderate" | "weak"}, ...]}
Use only capabilities the applicant's information states. Name needs that nothing matches as pairs with applicantCapability "none".
{{json_rule}}`;
