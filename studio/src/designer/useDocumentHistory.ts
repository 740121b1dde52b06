// Undo/redo of a designer's document (model/history.ts), shared by the designers (table, tree, flow): edits are
// recorded and handed to the shell; a document that arrives from outside (another version, a restored draft, a
// save) replaces the history, while the designer's own edits coming back through the shell unchanged do not.
import { useCallback, useRef, useState } from 'react';
import type { RuleDocument } from '../api/types.ts';
import { canRedo, canUndo, record, redo, reset, startHistory, undo } from './model/history.ts';
import type { History, RecordOptions } from './model/history.ts';

export interface DocumentHistory<T> {
  /** The document as the designer shows it. */
  present: T;
  canUndo: boolean;
  canRedo: boolean;
  /** Records an edit and hands it to the shell (ignored when read-only or unchanged). */
  apply(next: T, options?: RecordOptions): void;
  /** Undoes or redoes one step; false when there was none (or read-only). */
  step(direction: 'undo' | 'redo'): boolean;
}

export function useDocumentHistory<T = RuleDocument>(document: T, onChange: (next: T) => void, readOnly: boolean): DocumentHistory<T> {
  const [history, setHistory] = useState<History<T>>(() => startHistory(document));
  const historyRef = useRef(history);
  historyRef.current = history;
  const changed = useRef(onChange);
  changed.current = onChange;
  const [seen, setSeen] = useState(document);
  if (document !== seen) {
    // a document from outside (another version, a restored draft): adopt it; our own edits come back unchanged
    setSeen(document);
    if (document !== history.present) setHistory(reset(document));
  }

  const move = useCallback((h: History<T>) => {
    historyRef.current = h;
    setHistory(h);
    setSeen(h.present);
    changed.current(h.present);
  }, []);

  const apply = useCallback((next: T, options?: RecordOptions) => {
    if (readOnly || next === historyRef.current.present) return;
    move(record(historyRef.current, next, options));
  }, [readOnly, move]);

  const step = useCallback((direction: 'undo' | 'redo') => {
    if (readOnly) return false;
    const h = direction === 'undo' ? undo(historyRef.current) : redo(historyRef.current);
    if (h === historyRef.current) return false;
    move(h);
    return true;
  }, [readOnly, move]);

  return { present: history.present, canUndo: canUndo(history), canRedo: canRedo(history), apply, step };
}
