import { describe, expect, it } from "vitest";
import { spanText, timeAgo, timeStamp } from "../src/timeText.js";

describe("timeStamp", () => {
  const at = new Date("2026-01-05T23:30:09.000Z");

  it("says a moment in UTC unless a zone is named, whatever the machine's zone", () => {
    expect(timeStamp(at)).toBe("2026-01-05 23:30 UTC");
    expect(timeStamp(at, { seconds: true })).toBe("2026-01-05 23:30:09 UTC");
    expect(timeStamp(at, { timeZone: "UTC" })).toBe("2026-01-05 23:30 UTC");
  });

  it("moves the day and the clock into the zone named, and names it", () => {
    expect(timeStamp(at, { timeZone: "Asia/Tokyo" })).toBe("2026-01-06 08:30 GMT+9");
    expect(timeStamp(at, { timeZone: "America/New_York", seconds: true })).toBe(
      "2026-01-05 18:30:09 EST",
    );
  });

  it("writes midnight as 00, not 24", () => {
    expect(timeStamp(new Date("2026-03-01T00:05:00.000Z"))).toBe("2026-03-01 00:05 UTC");
  });
});

describe("timeAgo", () => {
  const now = new Date("2026-01-05T12:00:00.000Z");
  const minutesBefore = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

  it("counts minutes, then hours up to two days, then days", () => {
    expect(timeAgo(minutesBefore(0.5), now)).toBe("now");
    expect(timeAgo(minutesBefore(1), now)).toBe("1 minute ago");
    expect(timeAgo(minutesBefore(59), now)).toBe("59 minutes ago");
    expect(timeAgo(minutesBefore(60), now)).toBe("1 hour ago");
    expect(timeAgo(minutesBefore(47 * 60 + 59), now)).toBe("47 hours ago");
    expect(timeAgo(minutesBefore(48 * 60), now)).toBe("2 days ago");
  });
});

describe("spanText", () => {
  it("says a span in its largest fitting unit", () => {
    expect(spanText(50)).toBe("50 sec");
    expect(spanText(12 * 60)).toBe("12 min");
    expect(spanText(90 * 60)).toBe("1.5 hr");
  });

  it("says ? for a span it cannot know", () => {
    expect(spanText(Number.POSITIVE_INFINITY)).toBe("?");
    expect(spanText(-1)).toBe("?");
  });
});
