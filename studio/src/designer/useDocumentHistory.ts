// Undo/redo of a designer's rule document (model/history.ts), shared by the designers: edits are recorded and
// handed to the shell; a document that arrives from outside (another version, a restored draft, a save) replaces
// the history, while the designer's own edits coming back unchanged do not.
import { useCallback, useRef, useState } from 'react';
import type { RuleDocument } from '../api/types.ts';
import { canRedo, canUndo, record, redo, reset, startHistory, undo } from './model/history.ts';
import type { History, RecordOptions } from './model/history.ts';

export interface DocumentHistory {
  /** The document as the designer shows it. */
  present: RuleDocument;
  canUndo: boolean;
  canRedo: boolean;
  /** Records an edit and hands it to the shell (ignored when read-only or unchanged). */
  apply(next: RuleDocument, options?: RecordOptions): void;
  /** Undoes or redoes one step; false when there was none. */
  step(direction: 'undo' | 'redo'): boolean;
}

export function useDocumentHistory(document: RuleDocument, onChange: (next: RuleDocument) => void, readOnly: boolean): DocumentHistory {
  const [history, setHistory] = useState<History<RuleDocument>>(() => startHistory(document));
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

  const apply = useCallback((next: RuleDocument, options?: RecordOptions) => {
    if (readOnly || next === historyRef.current.present) return;
    const h = record(historyRef.current, next, options);
    historyRef.current = h;
    setHistory(h);
    setSeen(next);
    changed.current(next);
  }, [readOnly]);

  const step = useCallback((direction: 'undo' | 'redo') => {
    if (readOnly) return false;
    const h = direction === 'undo' ? undo(historyRef.current) : redo(historyRef.current);
    if (h === historyRef.current) return false;
    historyRef.current = h;
    setHistory(h);
    setSeen(h.present);
    changed.current(h.present);
    return true;
  }, [readOnly]);

  return { present: history.present, canUndo: canUndo(history), canRedo: canRedo(history), apply, step };
}
