// Arrow keys, Home and End move between the tabs of a tablist (WAI-ARIA tabs pattern, automatic activation).
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

export function moveBetweenTabs(e: ReactKeyboardEvent<HTMLElement>): void {
  const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
  const current = tabs.indexOf(e.target as HTMLElement);
  if (current < 0) return;
  const next =
    e.key === 'ArrowRight' ? (current + 1) % tabs.length
    : e.key === 'ArrowLeft' ? (current - 1 + tabs.length) % tabs.length
    : e.key === 'Home' ? 0
    : e.key === 'End' ? tabs.length - 1
    : -1;
  if (next < 0) return;
  e.preventDefault();
  tabs[next]!.focus();
  tabs[next]!.click();
}
