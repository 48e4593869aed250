/**
 * Score corrections on the review page, as a browser without JavaScript sends them: each decision
 * form carries a "score is wrong" control per criterion (a number on the criterion's scale); the
 * filled one travels with the decision, becomes a marked calibration label, and the thread page
 * shows it. A correction off the scale is refused and records nothing.
 */
import { describe, expect, it } from "vitest";
import { PageClient } from "./pageClient.js";
import { eventually } from "./realDesk.js";
import { servedDeskForFile } from "./servedDesk.js";

const served = servedDeskForFile({ ana: "reviewer" });

async function waitingThread(title: string): Promise<string> {
  const reviewer = (await served.real.desk.authenticate(served.tokens.ana))!;
  const { threadId } = await served.real.desk.startProposal(
    { rfp: `${title}\nFlood resilience grants.`, applicant: "Harbour Trust", title },
    reviewer,
  );
  await eventually(`the first review of ${threadId}`, async () => {
    const status = await served.real.desk.threadStatus(threadId, reviewer);
    return status.status === "waiting" ? true : undefined;
  });
  return threadId;
}

/** The hidden fields of one form of the page, by name, as a browser would send them. */
function hiddenFieldsOf(html: string, formId: string): Record<string, string> {
  const start = html.indexOf(`id="${formId}"`);
  const form = html.slice(start, html.indexOf("</form>", start));
  const fields: Record<string, string> = {};
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[match[1] ?? ""] = match[2] ?? "";
  }
  return fields;
}

/** The index of the criterion's correction fields in a form's fields. */
function indexOf(fields: Record<string, string>, criterionId: string): string {
  const entry = Object.entries(fields).find(([, value]) => value === criterionId);
  const index = /^correction-(\d+)-criterion$/.exec(entry?.[0] ?? "")?.[1];
  if (index === undefined) throw new Error(`no correction fields for ${criterionId}`);
  return index;
}

describe("score corrections on the review page", () => {
  it("sends the marked criterion with the approval and shows it on the thread page", async () => {
    const threadId = await waitingThread("Corrected on the page");
    const client = new PageClient(served.app);
    await client.signIn(served.tokens.ana);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(html).toContain("score is wrong");
    const fields = hiddenFieldsOf(html, "decision-form");
    const award = indexOf(fields, "award_parameters");
    expect(html).toContain(`id="correction-${award}-value"`);
    // Every criterion's value field goes with the form; only one is filled in.
    const values = Object.fromEntries(
      Object.keys(fields)
        .filter((name) => name.endsWith("-criterion"))
        .map((name) => [name.replace("-criterion", "-value"), ""]),
    );
    const posted = await client.post(`/reviews/${threadId}/decisions`, {
      ...fields,
      ...values,
      action: "approve",
      comment: "",
      [`correction-${award}-value`]: "0.4",
      [`correction-${award}-note`]: "no award ceiling",
    });
    expect(posted.status).toBe(303);

    const labels = await served.real.desk.store.labelsFor(threadId);
    expect(labels).toHaveLength(5);
    const marked = labels.filter((l) => l.source === "marked");
    expect(marked.map((l) => [l.criterionId, l.reviewerScore, l.reviewerNote])).toEqual([
      ["award_parameters", 0.4, "no award ceiling"],
    ]);
    const thread = await (await client.get(`/threads/${threadId}`)).text();
    expect(thread).toContain("judge 0.85 → reviewer 0.4 — “no award ceiling”");
  });

  it("refuses a correction off the criterion's scale and records nothing", async () => {
    const threadId = await waitingThread("Off the scale on the page");
    const client = new PageClient(served.app);
    await client.signIn(served.tokens.ana);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    const fields = hiddenFieldsOf(html, "decision-form");
    const award = indexOf(fields, "award_parameters");
    const posted = await client.post(`/reviews/${threadId}/decisions`, {
      ...fields,
      action: "approve",
      [`correction-${award}-value`]: "7",
    });
    expect(posted.status).toBe(400);
    expect(await posted.text()).toContain("7 is outside the criterion&#39;s scale 0–1");
    expect(await served.real.desk.store.labelsFor(threadId)).toEqual([]);
  });
});
