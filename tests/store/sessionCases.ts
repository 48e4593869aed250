/**
 * Page sessions in the review store (cases of the store conformance suite): a session is found while it is
 * open, unexpired and its reviewer not revoked; ending it is seen by another connection to the same
 * database at once (another replica); expired rows are dropped when the next session opens.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ReviewStore } from "../../src/store/reviewStore.js";

const NOW = "2031-06-01T12:00:00.000Z";
const LATER = "2031-06-01T23:59:59.999Z";
const EXPIRY = "2031-06-02T00:00:00.000Z";
const AFTER_EXPIRY = "2031-06-02T00:00:00.001Z";

/** The cases on two stores of one database (two connections, as two replicas have). */
export function sessionCases(stores: () => [ReviewStore, ReviewStore]) {
  describe("page sessions", () => {
    let one: ReviewStore;
    let other: ReviewStore;
    const run = `${Date.now()}`;
    const id = (n: string) => `session-${run}-${n}`;

    beforeAll(async () => {
      [one, other] = stores();
      await one.addReviewer(id("ana"), "admin", id("ana-token"));
      await one.addReviewer(id("bo"), "reviewer", id("bo-token"));
    });

    it("finds an open session's reviewer until it expires, on either connection", async () => {
      await one.openSession({ idHash: id("s1"), reviewer: id("ana"), expiresAt: EXPIRY }, NOW);
      const ana = { name: id("ana"), role: "admin" };
      expect(await one.sessionReviewer(id("s1"), NOW)).toEqual(ana);
      expect(await other.sessionReviewer(id("s1"), LATER)).toEqual(ana);
      expect(await other.sessionReviewer(id("s1"), EXPIRY)).toBeUndefined();
      expect(await one.sessionReviewer(id("never-opened"), NOW)).toBeUndefined();
    });

    it("ends a session for every connection, once; the reviewer's other sessions stay open", async () => {
      await one.openSession({ idHash: id("s2"), reviewer: id("bo"), expiresAt: EXPIRY }, NOW);
      await one.openSession({ idHash: id("s3"), reviewer: id("bo"), expiresAt: EXPIRY }, NOW);
      expect(await other.endSession(id("s2"), NOW)).toBe(true);
      expect(await other.endSession(id("s2"), NOW)).toBe(false);
      expect(await one.sessionReviewer(id("s2"), NOW)).toBeUndefined();
      expect(await one.sessionReviewer(id("s3"), NOW)).toEqual({
        name: id("bo"),
        role: "reviewer",
      });
      expect(await one.endSession(id("no-such-session"), NOW)).toBe(false);
    });

    it("refuses every session of a revoked reviewer", async () => {
      const cy = id("cy");
      await one.addReviewer(cy, "reviewer", id("cy-token"));
      await one.openSession({ idHash: id("s4"), reviewer: cy, expiresAt: EXPIRY }, NOW);
      expect(await other.sessionReviewer(id("s4"), NOW)).toEqual({ name: cy, role: "reviewer" });
      expect(await one.revokeReviewer(cy)).toBe(true);
      expect(await other.sessionReviewer(id("s4"), NOW)).toBeUndefined();
    });

    it("drops expired sessions when the next one opens", async () => {
      await one.openSession({ idHash: id("s5"), reviewer: id("ana"), expiresAt: EXPIRY }, NOW);
      await other.openSession(
        { idHash: id("s6"), reviewer: id("ana"), expiresAt: "2031-06-03T00:00:00.000Z" },
        AFTER_EXPIRY,
      );
      // Gone, not merely expired: ending it finds no row.
      expect(await one.endSession(id("s5"), NOW)).toBe(false);
      expect(await one.sessionReviewer(id("s6"), AFTER_EXPIRY)).toEqual({
        name: id("ana"),
        role: "admin",
      });
    });

    it("refuses a second session with the same id hash", async () => {
      await one.openSession({ idHash: id("s7"), reviewer: id("ana"), expiresAt: EXPIRY }, NOW);
      await expect(
        other.openSession({ idHash: id("s7"), reviewer: id("bo"), expiresAt: EXPIRY }, NOW),
      ).rejects.toThrow();
      expect(await one.sessionReviewer(id("s7"), NOW)).toEqual({ name: id("ana"), role: "admin" });
    });
  });
}
