// The bench's view of a script run: the script's console (log() and console.* lines), per input for a bulk run.
import type { BenchViewProps } from '../kinds/types.ts';
import { consoleLines } from './model.ts';

export function ScriptBenchView({ response }: BenchViewProps) {
  const groups = consoleLines(response.trace);
  const total = groups.reduce((n, g) => n + g.lines.length, 0);
  return (
    <section className="sc-console" aria-label="Console output">
      <h3>Console <span className="muted small">{total} line{total === 1 ? '' : 's'}</span></h3>
      {total === 0 ? (
        <p className="muted">The script printed nothing. <code>log(…)</code> or <code>console.log(…)</code> lines show here.</p>
      ) : (
        groups.map((group) => (
          <div key={group.input ?? 'single'}>
            {group.input !== null && <h4 className="small">Input {group.input + 1}</h4>}
            <pre className="sc-console-lines">{group.lines.length > 0 ? group.lines.join('\n') : '(nothing printed)'}</pre>
          </div>
        ))
      )}
    </section>
  );
}
