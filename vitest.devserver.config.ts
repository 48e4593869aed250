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
    // As in the main suite: the scripted judge answers per criterion, so the extra injection-guard
    // call is off here (it is tested on its own).
    env: { EVALGATE_INJECTION_GUARD: "off" },
  },
});
