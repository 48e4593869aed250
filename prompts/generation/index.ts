export * from "./connectionPairsPrompt.js";
export * from "./researchPrompt.js";
export * from "./sectionPrompt.js";
export * from "./solutionPrompt.js";
export * from "./system.js";
