// A designer's document with undo/redo (model/history.ts): edits are recorded and handed to the shell; a document
// that comes from outside (another version, a restored draft) replaces the history, while the designer's own
// edits, coming back through the shell unchanged, do not. Shared by the table and tree designers.
import { useCallback, useRef, useState } from 'react';
import { record, redo, reset, startHistory, undo } from './model/history.ts';
import type { History, RecordOptions } from './model/history.ts';

export interface DocumentHistory<T> {
  history: History<T>;
  /** Records `next` (no-op when read-only or unchanged) and hands it to the shell. */
  apply(next: T, options?: RecordOptions): void;
  /** Undo or redo; false when there was nothing to do (or read-only). */
  step(direction: 'undo' | 'redo'): boolean;
}

export function useDocumentHistory<T>(document: T, onChange: (next: T) => void, readOnly: boolean): DocumentHistory<T> {
  const [history, setHistory] = useState<History<T>>(() => startHistory(document));
  const historyRef = useRef(history);
  historyRef.current = history;
  const [seen, setSeen] = useState(document);
  if (document !== seen) {
    setSeen(document);
    if (document !== history.present) setHistory(reset(document));
  }

  const move = useCallback((h: History<T>) => {
    historyRef.current = h;
    setHistory(h);
    setSeen(h.present);
    onChange(h.present);
  }, [onChange]);

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

  return { history, apply, step };
}
