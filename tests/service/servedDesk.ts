/**
 * The service app over the real review desk, for one test file: opened before the file's tests
 * with the reviewers it names (their sign-in tokens by name), closed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { createServiceApp } from "../../src/service/app.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { apiClient } from "./apiClient.js";
import { openRealDesk, type RealDesk } from "./realDesk.js";

export interface ServedDesk<Name extends string = string> {
  readonly real: RealDesk;
  readonly app: ReturnType<typeof createServiceApp>;
  /** A JSON API client of the app. */
  readonly client: ReturnType<typeof apiClient>;
  /** Each reviewer's token, by name. */
  readonly tokens: Readonly<Record<Name, string>>;
}

/** Call it at a test file's top level, before the file's own hooks. */
export function servedDeskForFile<Name extends string>(
  reviewers: Readonly<Record<Name, Reviewer["role"]>>,
): ServedDesk<Name> {
  let opened: ServedDesk<Name> | undefined;
  beforeAll(async () => {
    const real = await openRealDesk();
    const app = createServiceApp({ desk: real.desk, logError: () => {} });
    const tokens: Partial<Record<Name, string>> = {};
    for (const name of Object.keys(reviewers) as Name[]) {
      tokens[name] = await real.addReviewer(name, reviewers[name]);
    }
    opened = { real, app, client: apiClient(app), tokens: tokens as Record<Name, string> };
  }, 60_000);
  afterAll(async () => {
    await opened?.real.close();
  });
  const ready = (): ServedDesk<Name> => {
    if (opened === undefined) throw new Error("the served desk is opened in beforeAll");
    return opened;
  };
  return {
    get real() {
      return ready().real;
    },
    get app() {
      return ready().app;
    },
    get client() {
      return ready().client;
    },
    get tokens() {
      return ready().tokens;
    },
  };
}
