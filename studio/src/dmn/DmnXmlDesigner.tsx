// A placeholder designer for DMN rules: the model's XML as text. The dmn-js editor replaces it (helper dmn-studio).
import type { DesignerProps } from '../kinds/types.ts';

export function DmnXmlDesigner({ rule, onChange, problems, readOnly }: DesignerProps) {
  const xml = typeof rule.dmn === 'string' ? rule.dmn : '';
  return (
    <section aria-label="DMN model">
      <label>
        DMN XML
        <textarea
          value={xml}
          readOnly={readOnly}
          spellCheck={false}
          rows={30}
          style={{ width: '100%', fontFamily: 'monospace' }}
          onChange={(event) => onChange({ ...rule, dmn: event.target.value })}
        />
      </label>
      {problems.length > 0 && (
        <ul aria-label="Model problems">
          {problems.map((p, i) => (
            <li key={i}>{p.path ? `${p.path}: ${p.message}` : p.message}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
