import type { Permission } from '../api/auth.ts';

/** A page the role cannot open: says so and why, instead of a page of 403s. */
export function NotAllowed(props: { reason: string; permission: Permission }) {
  return (
    <section className="content" aria-labelledby="not-allowed-title">
      <div className="state state-error" role="alert">
        <strong id="not-allowed-title">Not available to your role</strong>
        <p>{props.reason} (needs the permission <code>{props.permission}</code>). Ask an admin of the space for another role.</p>
      </div>
    </section>
  );
}
