/**
 * `evalgate/service`: the review service — a Hono app (JSON API with bearer tokens, server-rendered
 * review pages, progress over SSE) over a review desk, and a server that runs it.
 *
 * @example
 * const desk = await createReviewDesk({ sqlitePath: ".evalgate/checkpoints.sqlite" });
 * const service = await startService({ desk, host: "127.0.0.1", port: 8787 });
 * console.log(`reviews at ${service.url}`);
 */
export { createServiceApp, MAX_BODY_BYTES, type ServiceAppOptions } from "./app.js";
export { ServiceRequestError } from "./errors.js";
export { type RunningService, type ServiceOptions, startService } from "./server.js";
