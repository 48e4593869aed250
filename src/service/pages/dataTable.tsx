/** A table of the pages: a heading per column, a row per item, a cell per column. */
import type { Child } from "hono/jsx";

/** The columns by heading, in order: each turns an item into its cell. */
export type Columns<T> = Readonly<Record<string, (item: T) => Child>>;

export function DataTable<T>(props: {
  columns: Columns<T>;
  items: readonly T[];
  id?: string;
  class?: string;
  /** A class for some cells, by the column's heading. */
  cellClass?: Readonly<Record<string, (item: T) => string | undefined>>;
  /** The `data-stage` of an item's row. */
  rowStage?: (item: T) => string;
}) {
  const headings = Object.keys(props.columns);
  return (
    <table class={props.class ?? "queue"} id={props.id}>
      <thead>
        <tr>
          {headings.map((heading) => (
            <th>{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <tr data-stage={props.rowStage?.(item)}>
            {headings.map((heading) => (
              <td class={props.cellClass?.[heading]?.(item)}>{props.columns[heading]?.(item)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
