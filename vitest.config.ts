import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    // The `evalgate` command runs the compiled CLI (dist/), as an installed package does: built first.
    globalSetup: ["tests/buildDist.ts"],
    testTimeout: 20_000,
    // No setting of the product is changed for the suite: it runs with the defaults users get
    // (the injection guard on; the test doubles answer its prompts, tests/doubles/guardAnswers.ts).
  },
});
