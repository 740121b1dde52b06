// A menu button offering the node types a place may hold (WAI-ARIA menu button: Enter/Space/click opens it and
// focuses the first item, arrow keys move, Escape or a click elsewhere closes it).
import { useEffect, useRef, useState } from 'react';
import type { TreeNodeType } from './model.ts';
import { ADD_LABEL } from './model.ts';

export interface AddMenuProps {
  /** The button's accessible name: `Add node`, `Add to IF age >= 18`. */
  label: string;
  /** What the button shows (defaults to the label). */
  text?: string;
  types: readonly TreeNodeType[];
  className?: string;
  onPick(type: TreeNodeType): void;
}

export function AddMenu(props: AddMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => { if (!root.current?.contains(e.target as Node)) setOpen(false); };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => { setOpen(false); button.current?.focus(); };
  const onMenuKey = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(); }
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    } else if (e.key === 'Tab') setOpen(false);
  };

  return (
    <span className="tr-add" ref={root}>
      <button ref={button} type="button" className={props.className} aria-haspopup="menu" aria-expanded={open} aria-label={props.text ? props.label : undefined}
        onClick={(e) => { e.stopPropagation(); setOpen(!open); }}>
        {props.text ?? props.label}
      </button>
      {open && (
        <div role="menu" aria-label={props.label} className="tr-menu" onKeyDown={onMenuKey} onClick={(e) => e.stopPropagation()}>
          {props.types.map((type) => (
            <button key={type} type="button" role="menuitem" tabIndex={-1} onClick={() => { setOpen(false); props.onPick(type); }}>
              {ADD_LABEL[type]}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
