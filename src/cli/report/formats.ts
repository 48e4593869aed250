/** The report formats, in a module of their own so that commands can list them without loading the renderers. */
export const REPORT_FORMATS = ["table", "toon", "json", "md", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const EVALUATE_FORMATS = [...REPORT_FORMATS, "junit"] as const;
export type EvaluateFormat = (typeof EVALUATE_FORMATS)[number];
