/** Who may review: a reviewer's name and role as the store keeps them, and its row. */
import { z } from "zod";

export const ReviewerRoleSchema = z.enum(["reviewer", "admin"]);
export type ReviewerRole = z.infer<typeof ReviewerRoleSchema>;

/** A signed-in person or service; identity always comes from the token, never from a body. */
export const ReviewerSchema = z.object({
  name: z.string(),
  role: ReviewerRoleSchema,
});
export type Reviewer = z.infer<typeof ReviewerSchema>;

export const ReviewerRowSchema = ReviewerSchema.extend({
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
