import { defineConfig } from "vitest/config";

/**
 * `npm run test:devserver`: the end-to-end tests through `langgraph dev` (tests/devserver/*.e2e.ts),
 * kept out of `npm test` because they start the LangGraph CLI's server (about 10 s).
 */
export default defineConfig({
  test: {
    include: ["tests/devserver/**/*.e2e.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    // As in the main suite: the defaults users get, the injection guard on.
  },
});
