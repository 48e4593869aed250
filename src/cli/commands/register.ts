import type { Command } from "commander";
import type { CliContext } from "../context.js";

/**
 * What every command module exports: a function that adds its command (with its options, help
 * and action) to the program. main.ts lists them; a command's heavy modules are imported inside
 * its action, so that `--help` and the other commands start fast.
 */
export type RegisterCommand = (program: Command, context: CliContext) => void;
