// A DMN model's XML as text: for the models dmn-js does not read (DmnDesigner.tsx says which and why). The rule
// page lists the server's problems of a save.
import type { DesignerProps } from '../kinds/types.ts';
import { dmnXml, withDmnXml } from './model.ts';

export function DmnXmlDesigner({ rule, onChange, readOnly, notice }: DesignerProps & { notice: string }) {
  return (
    <section className="dt-designer dmn-designer" aria-label="DMN model">
      <p className="muted" role="note">{notice}</p>
      <label className="dmn-xml">
        <span>DMN XML</span>
        <textarea value={dmnXml(rule)} readOnly={readOnly} spellCheck={false} rows={30} onChange={(event) => onChange(withDmnXml(rule, event.target.value))} />
      </label>
    </section>
  );
}
