#!/usr/bin/env node
// The evalgate command: runs src/cli/main.ts through tsx, so `npx evalgate` works right after
// `npm ci` without a build (tsx caches what it compiles in the system's temp folder).
import { register } from "tsx/esm/api";

// Commands that judge load LangChain, whose hundreds of files cost a round trip to tsx's loader
// thread each when loaded through tsx's hooks. Loaded natively first, they are already in the
// module map when the TypeScript code imports them (the same instances: tsx resolves a package
// specifier to the same URL). Measured on a 2-core machine: `evaluate` 2.1 s → 1.2 s; commands
// that do not judge are not slowed down. A dependency left off this list still loads, only slower.
const JUDGING_COMMANDS = new Set(["evaluate", "run", "serve"]);
const JUDGE_DEPENDENCIES = [
  "@langchain/core/language_models/chat_models",
  "@langchain/core/messages",
  "@langchain/ollama",
  "zod",
  "ajv",
  "p-limit",
  "minisearch",
  "@toon-format/toon",
];

const args = process.argv.slice(2);
if (JUDGING_COMMANDS.has(args[0] ?? "") && !args.includes("--help") && !args.includes("-h")) {
  await Promise.all(JUDGE_DEPENDENCIES.map((specifier) => import(specifier)));
}
register();

const { main } = await import("../src/cli/main.ts");
const code = await main(args);
// Let stdout drain (a large report into a pipe), then exit: an idle keep-alive connection to the
// model server must not hold the process open.
process.stdout.write("", () => process.exit(code));
