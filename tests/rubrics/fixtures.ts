/** The rubrics of the levels-rubric document's examples, as it writes them (to_dict form). */
export const FAIL_PASS = [
  { id: "fail", label: "Fail", description: "Too few", score: 0.0 },
  { id: "pass", label: "Pass", description: "Enough", score: 1.0 },
];

/** The end-to-end example: one deterministic criterion, a function registered by ref. */
export const QUIZ_RUBRIC = {
  id: "quiz_quality",
  name: "Quiz Quality",
  description: "Validates quiz content",
  version: "1.0.0",
  target_type: "content",
  criteria: [
    {
      id: "question_count",
      name: "Question Count",
      description: "Sufficient number of questions",
      weight: 1.0,
      levels: FAIL_PASS,
      scoring_method: { type: "deterministic", function_ref: "scoring:check_question_count" },
    },
  ],
  pass_threshold: 0.7,
};

/** The Rubric example (content_quality) with its clarity criterion and a completeness one. */
export const CONTENT_QUALITY = {
  id: "content_quality",
  name: "Content Quality",
  description: "Evaluates the quality of generated content",
  version: "1.0.0",
  target_type: "content",
  criteria: [
    {
      id: "clarity",
      name: "Clarity",
      description: "How clear and understandable the content is",
      weight: 0.4,
      levels: [
        { id: "fail", label: "Fail", description: "Unclear", score: 0.0 },
        { id: "pass", label: "Pass", description: "Understandable", score: 0.7 },
        {
          id: "excellent",
          label: "Excellent",
          description: "Crystal clear with good examples",
          score: 1.0,
          indicators: ["Uses concrete examples", "Logical flow", "No jargon"],
        },
      ],
      scoring_method: { type: "deterministic", function_ref: "myapp.scoring:check_clarity" },
      required: true,
    },
    {
      id: "completeness",
      name: "Completeness",
      description: "Covers all required topics",
      weight: 0.6,
      levels: [
        { id: "fail", label: "Fail", description: "Misses topics", score: 0.0 },
        { id: "pass", label: "Pass", description: "Covers the topics", score: 0.7 },
        {
          id: "excellent",
          label: "Excellent",
          description: "Covers all required topics with depth",
          score: 1.0,
        },
      ],
      scoring_method: {
        type: "schema",
        schema: {
          type: "object",
          required: ["questions"],
          properties: { questions: { type: "array", minItems: 1, items: { type: "string" } } },
        },
      },
    },
  ],
  pass_threshold: 0.7,
  metadata: { author: "system", domain: "education" },
};

/** A rubric for another target type. */
export const ASSESSMENT_RUBRIC = {
  ...QUIZ_RUBRIC,
  id: "assessment_shape",
  name: "Assessment Shape",
  target_type: "assessment",
};

/** Levels of a pedagogy criterion: recall, understanding, transfer. */
export const PEDAGOGY_LEVELS = [
  { id: "poor", label: "Poor", description: "Tests recall only", score: 0 },
  { id: "good", label: "Good", description: "Tests understanding", score: 0.8 },
  { id: "excellent", label: "Excellent", description: "Tests transfer", score: 1 },
];

/** The quiz rubric with a pedagogy criterion the llm decides (no decode prompt: the default one). */
export const QUIZ_PEDAGOGY = {
  id: "quiz_pedagogy",
  name: "Quiz Pedagogy",
  description: "Whether the questions test understanding",
  version: "1.0.0",
  target_type: "content",
  pass_threshold: 0.7,
  criteria: [
    {
      id: "pedagogy",
      name: "Pedagogical Quality",
      description: "Questions test understanding rather than memorisation",
      weight: 1,
      levels: PEDAGOGY_LEVELS,
      scoring_method: { type: "llm_decode" },
    },
  ],
};

/** The quiz example's scoring function: five questions or more pass. */
export function checkQuestionCount(content: unknown): string {
  const questions =
    typeof content === "object" && content !== null && "questions" in content
      ? content.questions
      : [];
  return Array.isArray(questions) && questions.length >= 5 ? "pass" : "fail";
}

export const FIVE_QUESTIONS = { questions: ["Q1", "Q2", "Q3", "Q4", "Q5"] };
