/** What the service's middleware puts on a request's context for the handlers. */
import type { Reviewer } from "../store/reviewers.js";
import type { Session } from "./session.js";

export interface ServiceEnv {
  Variables: {
    /** The signed-in reviewer, from the bearer token or the session's token. */
    reviewer: Reviewer;
    /** The page session (sign-in and CSRF token), on page routes. */
    session: Session;
  };
}
