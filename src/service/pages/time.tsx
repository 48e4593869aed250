/** A moment: `<time datetime>` with UTC text, which the pages' script shows in the reader's zone. */
import { timeStamp } from "../../timeText.js";

/** "2026-05-04 10:12 UTC" (with seconds: "2026-05-04 10:12:03 UTC"); unreadable input as given. */
export function utcText(iso: string, seconds = false): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : timeStamp(instant, { seconds });
}

export function Time(props: { iso: string; seconds?: boolean }) {
  const instant = new Date(props.iso);
  const valid = !Number.isNaN(instant.getTime());
  return (
    <time
      datetime={valid ? instant.toISOString() : undefined}
      data-seconds={props.seconds === true ? "true" : undefined}
    >
      {utcText(props.iso, props.seconds)}
    </time>
  );
}
