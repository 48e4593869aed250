/** The tabs above the queue: the reviews waiting, the finished proposals (and, for admins, calibration). */

export type QueueTab = "waiting" | "finished" | "calibration";

export function QueueTabs(props: { current: QueueTab; admin: boolean }) {
  const tab = (name: QueueTab, href: string, label: string) => (
    <a href={href} class="tab" aria-current={props.current === name ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <nav class="tabs" aria-label="Proposals">
      {tab("waiting", "/reviews", "Waiting for review")}
      {tab("finished", "/proposals/finished", "Finished")}
      {props.admin ? tab("calibration", "/calibration", "Calibration") : null}
    </nav>
  );
}
