/**
 * Moments and spans of time in English by Intl: `2026-05-04 10:12 UTC`, `30 minutes ago`, `50 sec`.
 */

export interface TimeStampOptions {
  /** With seconds: `2026-05-04 10:12:03 UTC`. */
  seconds?: boolean;
  /** An IANA time zone (`Europe/Berlin`); default UTC. Its short name ends the text. */
  timeZone?: string;
}

const stampFormats = new Map<string, Intl.DateTimeFormat>();

function stampFormat(timeZone: string, seconds: boolean): Intl.DateTimeFormat {
  const key = `${timeZone} ${seconds}`;
  let format = stampFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      ...(seconds ? { second: "2-digit" } : {}),
      hourCycle: "h23",
      timeZoneName: "short",
    });
    stampFormats.set(key, format);
  }
  return format;
}

export function timeStamp(at: Date, options: TimeStampOptions = {}): string {
  const seconds = options.seconds === true;
  const parts = new Map<string, string>(
    stampFormat(options.timeZone ?? "UTC", seconds)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.get(type) ?? "";
  const clock = [part("hour"), part("minute"), ...(seconds ? [part("second")] : [])].join(":");
  return `${part("year")}-${part("month")}-${part("day")} ${clock} ${part("timeZoneName")}`;
}

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** How long before `now` a moment was: `now`, `1 minute ago`, `3 hours ago`, `yesterday`, `4 days ago`. */
export function timeAgo(at: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - at.getTime()) / 60_000);
  if (minutes < 1) return RELATIVE.format(0, "second");
  if (minutes < 60) return RELATIVE.format(-minutes, "minute");
  if (minutes < 48 * 60) return RELATIVE.format(-Math.floor(minutes / 60), "hour");
  return RELATIVE.format(-Math.floor(minutes / (24 * 60)), "day");
}

const spanFormat = (unit: "second" | "minute" | "hour") =>
  new Intl.NumberFormat("en", {
    style: "unit",
    unit,
    unitDisplay: "short",
    maximumFractionDigits: unit === "hour" ? 1 : 0,
  });
const SPAN_FORMATS = {
  second: spanFormat("second"),
  minute: spanFormat("minute"),
  hour: spanFormat("hour"),
};

/** A span of seconds in its largest fitting unit: `50 sec`, `12 min`, `1.5 hr`; `?` when unknown. */
export function spanText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  if (seconds < 90) return SPAN_FORMATS.second.format(Math.round(seconds));
  if (seconds < 90 * 60) return SPAN_FORMATS.minute.format(Math.round(seconds / 60));
  return SPAN_FORMATS.hour.format(seconds / 3600);
}
