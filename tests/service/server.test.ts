/**
 * The HTTP server's graceful shutdown: an open event stream ends, `close()` resolves, the desk is
 * closed after the server (no request reaches a closed database), and the port is let go.
 */
import { describe, expect, it } from "vitest";
import { startService } from "../../src/service/server.js";
import { openRealDesk } from "./realDesk.js";

describe("startService", () => {
  it("ends open event streams and closes the desk when it shuts down", async () => {
    const real = await openRealDesk();
    try {
      const token = await real.addReviewer("ana");
      const service = await startService({ desk: real.desk, host: "127.0.0.1", port: 0 });
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const started = await fetch(`${service.url}/api/proposals`, {
        method: "POST",
        headers,
        body: JSON.stringify({ rfp: "Flood resilience grants.", applicant: "Harbour Trust" }),
      });
      expect(started.status).toBe(202);
      const { threadId } = (await started.json()) as { threadId: string };
      const stream = await fetch(`${service.url}/api/threads/${threadId}/events`, { headers });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      await reader.read();

      await service.close();
      let done = false;
      while (!done) done = (await reader.read()).done;
      expect(done).toBe(true);
      expect(await real.desk.ready()).toBe(false);
      await expect(fetch(`${service.url}/api/health`)).rejects.toThrow();
      await service.close();
    } finally {
      await real.close().catch(() => {});
    }
  }, 60_000);
});
