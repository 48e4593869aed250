/**
 * evalgate's public surface. Every concept lives in its own folder; this file re-exports them.
 */
export * from "./checks/index.js";
export * from "./context/index.js";
export * from "./criteria/index.js";
export * from "./engine/index.js";
export * from "./graph/index.js";
export * from "./judge/index.js";
export * from "./llm/index.js";
export * from "./orchestrator/index.js";
export * from "./scoring/index.js";
export * from "./toon/index.js";
