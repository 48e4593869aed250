/** Progress of a thread, streamed to the page (SSE); delivered across replicas via the database. */
import { z } from "zod";

export const ThreadEventSchema = z.object({
  seq: z.number().int(),
  threadId: z.string(),
  type: z.enum([
    "queued",
    "running",
    "stage",
    "progress",
    "review_ready",
    "finished",
    "failed",
    "stopped",
  ]),
  stage: z.string().optional(),
  message: z.string().optional(),
  at: z.string(),
});
export type ThreadEvent = z.infer<typeof ThreadEventSchema>;

export type EventType = ThreadEvent["type"];

/** An event to record: the store numbers it and stamps its time. */
export interface NewEvent {
  type: EventType;
  stage?: string;
  message?: string;
}
