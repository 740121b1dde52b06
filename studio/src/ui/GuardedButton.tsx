// A button that is disabled, not hidden, when the role cannot do its action, with the reason as its accessible
// description (and tooltip), so a person learns what is missing and why. `blocked` is any other reason (an
// approval still missing); the role's reason comes first.
import { useId } from 'react';
import type { ButtonHTMLAttributes } from 'react';
import type { Permission } from '../api/auth.ts';
import { useStudio } from '../app/context.ts';

export interface GuardedButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  permission: Permission;
  /** The action in words, after "Your role viewer cannot …": "publish", "edit rules". */
  what: string;
  blocked?: string;
}

export function GuardedButton({ permission, what, blocked, disabled, title, ...rest }: GuardedButtonProps) {
  const { grants } = useStudio();
  const id = useId();
  const reason = grants.reason(permission, what) ?? blocked;
  return (
    <>
      <button type="button" {...rest} disabled={disabled || reason !== undefined} title={reason ?? title}
        aria-describedby={reason ? id : rest['aria-describedby']} />
      {reason && <span id={id} className="visually-hidden">{reason}</span>}
    </>
  );
}
