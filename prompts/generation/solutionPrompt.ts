/** The "solution sought": what the funder wants solved and how. */
export const SOLUTION_TEMPLATE = `From the research on the funder and its request for proposals, describe the solution the funder is looking for.

{{research}}

{{rfp}}

{{revision}}

Answer as one JSON object:
{"problem": "<the problem the funder wants solved>", "desiredOutcomes": ["<outcome the funder expects>", ...],
 "preferredApproaches": ["<approach the RFP favours>", ...], "excludedApproaches": ["<what the RFP will not fund>", ...],
 "successIndicators": ["<how the funder will judge success>", ...], "evidence": ["<RFP passage supporting each point>", ...]}
{{json_rule}}`;
