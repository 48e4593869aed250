/** Technical details, collapsed, for admins only: other reviewers never receive them. */
import type { Child } from "hono/jsx";

export function AdminDetails(props: {
  admin: boolean;
  id: string;
  items: readonly string[];
  children?: Child;
}) {
  if (!props.admin || (props.items.length === 0 && props.children === undefined)) return null;
  return (
    <details class="admin-details" id={props.id}>
      <summary>Technical details (administrators)</summary>
      {props.items.length > 0 ? (
        <ul>
          {props.items.map((item) => (
            <li>
              <code>{item}</code>
            </li>
          ))}
        </ul>
      ) : null}
      {props.children}
    </details>
  );
}
