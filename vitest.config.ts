import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    // The `evalgate` command runs the compiled CLI (dist/), as an installed package does: built first.
    globalSetup: ["tests/buildDist.ts"],
    testTimeout: 20_000,
    // The injection guard (one extra judge call per evaluation) is on by default for users; the
    // suite's scripted judges answer per criterion, so it is off here and tested on its own
    // (tests/judge/injectionGuard.test.ts, tests/engine/injectionEntryPoints.test.ts).
    env: { EVALGATE_INJECTION_GUARD: "off" },
  },
});
