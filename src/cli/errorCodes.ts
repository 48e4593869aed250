/**
 * Every error code evalgate throws, gathered from the folders' errors modules: the list a caller
 * (or the command line's exit-code table) can rely on. A code names one error class (the review
 * desk's and the service's codes name the request they refused).
 */
import { z } from "zod";
import { BLUEPRINT_ERROR_CODES } from "../blueprints/errors.js";
import { CHECKS_ERROR_CODES } from "../checks/errors.js";
import { CONTEXT_ERROR_CODES } from "../context/errors.js";
import { CATALOG_ERROR_CODES } from "../criteria/errors.js";
import { ENGINE_ERROR_CODES } from "../engine/errors.js";
import { GRAPH_ERROR_CODES } from "../graph/errors.js";
import { JUDGE_ERROR_CODES } from "../judge/errors.js";
import { EMBEDDED_ERROR_CODES } from "../llm/embedded/errors.js";
import { LLM_ERROR_CODES } from "../llm/errors.js";
import { CHECKPOINTER_ERROR_CODES, ORCHESTRATOR_ERROR_CODES } from "../orchestrator/errors.js";
import { RUBRICS_ERROR_CODES } from "../rubrics/errors.js";
import { SCORING_ERROR_CODES } from "../scoring/errors.js";
import { SERVICE_ERROR_STATUS, type ServiceErrorCode } from "../service/errors.js";
import { STORE_ERROR_CODES } from "../store/errors.js";
import { TOON_ERROR_CODES } from "../toon/errors.js";
import { CLI_ERROR_CODES } from "./errors.js";

const FOLDER_ERROR_CODES = [
  ...BLUEPRINT_ERROR_CODES,
  ...CATALOG_ERROR_CODES,
  ...CHECKS_ERROR_CODES,
  ...CLI_ERROR_CODES,
  ...CONTEXT_ERROR_CODES,
  ...ENGINE_ERROR_CODES,
  ...GRAPH_ERROR_CODES,
  ...JUDGE_ERROR_CODES,
  ...LLM_ERROR_CODES,
  ...EMBEDDED_ERROR_CODES,
  ...ORCHESTRATOR_ERROR_CODES,
  ...CHECKPOINTER_ERROR_CODES,
  ...RUBRICS_ERROR_CODES,
  ...SCORING_ERROR_CODES,
  ...STORE_ERROR_CODES,
  ...TOON_ERROR_CODES,
] as const;

/** One evalgate error code. */
export type ErrorCode = (typeof FOLDER_ERROR_CODES)[number] | ServiceErrorCode;

/**
 * Every code once; the service's table holds the review desk's codes and its own, and gives a
 * status to a few folder codes too (STORE_UNAVAILABLE is 503), which are listed once.
 */
export const ERROR_CODES: readonly ErrorCode[] = [
  ...new Set<ErrorCode>([
    ...FOLDER_ERROR_CODES,
    ...(Object.keys(SERVICE_ERROR_STATUS) as ServiceErrorCode[]),
  ]),
];

/** The codes as a schema, for reading a code back from a report, a trace or another process. */
export const ErrorCodeSchema = z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]);
