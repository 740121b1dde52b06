// The paths the table's columns use that its models lack (model/coverage.ts), with one button that adds them (one
// undoable edit), then a line saying what was added with an Undo for it. Above a model editor it speaks of that
// model; above the grid, of both.
import type { ModelGaps, ModelSide } from './model/coverage.ts';

export interface ModelGapsNoticeProps {
  /** The model editor it stands above, or the table (both models). */
  place: ModelSide | 'table';
  gaps: ModelGaps;
  /** What the last "Add" here said it added, while that edit is the last one. */
  added: string | null;
  readOnly: boolean;
  onAdd(): void;
  onUndo(): void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function codeList(paths: readonly string[]) {
  return paths.map((path, i) => (
    <span key={path}>
      {i > 0 && ', '}
      <code>{path}</code>
    </span>
  ));
}

/** What adding `gaps` to the models of `place` adds, said after it is done. */
export function addedText(place: ModelSide | 'table', gaps: ModelGaps): string {
  const sides = place === 'table' ? (['input', 'output'] as const) : [place];
  const parts = sides.filter((side) => gaps[side].length > 0).map((side) => `${gaps[side].join(', ')} to the ${side} model`);
  return `Added ${parts.join(' and ')}.`;
}

export function ModelGapsNotice({ place, gaps, added, readOnly, onAdd, onUndo }: ModelGapsNoticeProps) {
  const count = place === 'table' ? gaps.input.length + gaps.output.length : gaps[place].length;
  if (count > 0) {
    return (
      <div className="dt-model-gaps" role="note" aria-label={place === 'table' ? 'Paths the models lack' : `Paths the ${place} model lacks`}>
        {place === 'table' ? (
          <p>
            Columns use {count === 1 ? 'a path' : `${count} paths`} their models lack:{' '}
            {gaps.input.length > 0 && <>{codeList(gaps.input)} (input model)</>}
            {gaps.input.length > 0 && gaps.output.length > 0 && ', '}
            {gaps.output.length > 0 && <>{codeList(gaps.output)} (output model)</>}.
          </p>
        ) : (
          <p>
            {place === 'input' ? 'Condition columns read' : 'Result columns write'} {count === 1 ? 'a path' : `${count} paths`} the {place} model lacks:{' '}
            {codeList(gaps[place])}.
          </p>
        )}
        {!readOnly && (
          <button type="button" className="dt-primary" onClick={onAdd}>
            Add {plural(count, 'path')} to the {place === 'table' && gaps.input.length > 0 && gaps.output.length > 0 ? 'models' : 'model'}
          </button>
        )}
      </div>
    );
  }
  if (added === null) return null;
  return (
    <div className="dt-model-gaps dt-model-gaps-done" role="status">
      <p>{added}</p>
      {/* Focus lands here: the "Add" button it replaces is gone. */}
      <button type="button" autoFocus onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}
