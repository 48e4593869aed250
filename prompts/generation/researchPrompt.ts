/** Research on the funder and the RFP: what the proposal must answer. */
export const RESEARCH_TEMPLATE = `Analyse the request for proposals below and the funder behind it.

{{rfp}}

{{applicant}}

{{revision}}

Report what the proposal must respond to, as one JSON object with these fields:
{"funder": "<the funder's name>", "mission": "<the funder's mission, in its own words>",
 "applicant": "<the applicant's name, from the applicant information>", "project": "<the name of the applicant's project, or a title of a few words for it>",
 "priorities": ["<funding priority>", ...],
 "eligibility": ["<eligibility requirement>", ...], "evaluationCriteria": ["<criterion and its weight, as stated>", ...],
 "fundingRange": "<award size and period, as stated>", "requiredSections": ["<section the proposal must contain>", ...],
 "deadlinesAndRules": ["<deadline or submission rule>", ...], "sources": ["<where in the RFP each fact comes from>", ...]}
{{json_rule}}`;
