// Runs the pipeline from the terminal, keeping its threads in pipeline.sqlite beside this file:
//   node pipeline.mjs "<topic>"                  write, judge, and stop at the review
//   node pipeline.mjs decide accept              resume as Agent Inbox does: [{ type: "accept" }]
//   node pipeline.mjs decide respond "<text>"    ask for a revision with this feedback
//   node pipeline.mjs decide edit <file>         replace the draft with the file's text
//   node pipeline.mjs decide ignore              Agent Inbox's ignore: the review says why it
//                                                cannot be skipped and asks again
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Command } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { buildPipeline } from "./graph.mjs";

const here = new URL("./", import.meta.url);
const checkpointer = SqliteSaver.fromConnString(new URL("pipeline.sqlite", here).pathname);
const threadFile = new URL(".thread", here);
const graph = buildPipeline().compile({ checkpointer });

const USAGE = 'npm run decide -- accept | respond "<feedback>" | edit <file>';

/** Stops with a message (no stack trace): what was wrong and what to run instead. */
function stop(message, code = 2) {
  console.error(message);
  process.exit(code);
}

/** The Agent Inbox response for a decision typed on the command line, to the review `action`. */
function humanResponse(kind, value, action) {
  if (kind === "accept") return { type: "accept", args: null };
  if (kind === "ignore") return { type: "ignore", args: null };
  if (kind === "respond") return { type: "response", args: value ?? "" };
  if (kind === "edit") {
    if (value === undefined || !existsSync(value)) {
      stop(`edit needs a file with the new text: ${value ?? "none given"} is not there`);
    }
    return {
      type: "edit",
      args: { action, args: { content: readFileSync(value, "utf8") } },
    };
  }
  return stop(`"${kind ?? ""}" is not a decision. Decide with: ${USAGE}`);
}

/** Prints where the thread stands: the review as Agent Inbox shows it, or the published text. */
async function report(config) {
  const state = await graph.getState(config, { subgraphs: true });
  const pending = state.tasks.flatMap((task) => task.interrupts ?? []);
  if (pending.length === 0) {
    console.log(
      `Finished: ${state.values.status}.\n\n${state.values.published ?? "(nothing published)"}`,
    );
    return;
  }
  const review = pending[0].value;
  console.log(`Review: ${review.action_request.action}`);
  console.log(review.description);
  console.log(`\n${review.action_request.args.content}\n`);
  console.log(`Decide: ${USAGE}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === "decide") {
  if (!existsSync(threadFile)) stop('No thread yet: start one with npm start -- "<topic>"');
  const threadId = readFileSync(threadFile, "utf8").trim();
  const config = { configurable: { thread_id: threadId } };
  const state = await graph.getState(config, { subgraphs: true });
  const [review] = state.tasks.flatMap((task) => task.interrupts ?? []);
  if (review === undefined) {
    const where =
      state.next.length === 0
        ? `is already finished (${state.values.status ?? "not started"})`
        : `is not waiting for a review (it stopped at ${state.next.join(", ")})`;
    stop(
      `Thread ${threadId} ${where}: there is nothing to decide. Start a new one with npm start -- "<topic>".`,
      1,
    );
  }
  // Agent Inbox resumes a review with a list of one HumanResponse; so does this.
  const response = humanResponse(rest[0], rest[1], review.value.action_request.action);
  await graph.invoke(new Command({ resume: [response] }), config);
  await report(config);
} else {
  const threadId = `proposal-${Date.now()}`;
  writeFileSync(threadFile, `${threadId}\n`);
  const config = { configurable: { thread_id: threadId } };
  await graph.invoke({ topic: command ?? "heat resilience for older renters" }, config);
  await report(config);
}
