// The DMN editor proper: bpmn.io's dmn-js (its decision requirements diagram, decision table, literal expression
// and boxed expression editors) over the draft's XML. Loaded on demand (DmnDesigner.tsx), so only DMN rules pay for
// dmn-js. Every change dmn-js makes is written back as XML through onChange (the shell keeps the draft, its dirty
// state and saves it); the XML is imported again only when the draft changes from outside (a restored or
// discarded draft), so editing does not reset the view. Undo and redo are the open view's own command stack.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import DmnJsModeler from 'dmn-js/lib/Modeler';
import DmnJsViewer from 'dmn-js/lib/Viewer';
import type { DmnView, DmnViewer } from 'dmn-js/lib/Modeler';
import 'dmn-js/dist/assets/diagram-js.css';
import 'dmn-js/dist/assets/dmn-js-shared.css';
import 'dmn-js/dist/assets/dmn-js-drd.css';
import 'dmn-js/dist/assets/dmn-js-decision-table.css';
import 'dmn-js/dist/assets/dmn-js-decision-table-controls.css';
import 'dmn-js/dist/assets/dmn-js-literal-expression.css';
import 'dmn-js/dist/assets/dmn-js-boxed-expression.css';
import 'dmn-js/dist/assets/dmn-js-boxed-expression-controls.css';
import 'dmn-js/dist/assets/dmn-font/css/dmn.css';
import type { DesignerProps } from '../kinds/types.ts';
import { moveBetweenTabs } from '../designer/tabs.ts';
import { dmnXml, hasDmnModel, withDmnXml, withOriginModel } from './model.ts';
import type { DmnNamespaces } from './model.ts';
import { moddleExtensionsFor } from './moddle.ts';

const VIEW_KINDS: Record<string, string> = {
  decisionTable: 'decision table',
  literalExpression: 'literal expression',
  boxedExpression: 'boxed expression',
};

function viewLabel(view: DmnView): string {
  if (view.type === 'drd') return 'Decision requirements';
  return `${view.element.name || view.element.id} (${VIEW_KINDS[view.type] ?? view.type})`;
}

interface CommandStack { undo(): void; redo(): void; canUndo(): boolean; canRedo(): boolean }

function stackOf(viewer: DmnViewer | undefined): CommandStack | null {
  return viewer?.get<CommandStack | null>('commandStack', false) ?? null;
}

function historyOf(stack: CommandStack | null) {
  return { canUndo: stack?.canUndo() ?? false, canRedo: stack?.canRedo() ?? false };
}

export default function DmnModeler({ rule, onChange, readOnly, namespaces }: DesignerProps & { namespaces: DmnNamespaces }) {
  const id = useId();
  const host = useRef<HTMLDivElement>(null);
  const modeler = useRef<DmnJsModeler | null>(null);
  /** The XML dmn-js holds: the last imported or written back. */
  const shown = useRef<string | null>(null);
  /** The document whose XML was last imported, and that XML as dmn-js writes it: undoing every edit goes back to it. */
  const origin = useRef<{ rule: DesignerProps['rule']; written: string } | undefined>(undefined);
  const latest = useRef({ rule, onChange });
  latest.current = { rule, onChange };
  const [views, setViews] = useState<DmnView[]>([]);
  const [active, setActive] = useState<DmnView | undefined>(undefined);
  const [history, setHistory] = useState({ canUndo: false, canRedo: false });
  const [error, setError] = useState<string | null>(null);

  // A read-only viewer has no command stack.
  const commandStack = () => stackOf(modeler.current?.getActiveViewer());

  async function openView(view: DmnView) {
    const current = modeler.current;
    if (!current) return;
    try {
      await current.open(view);
    } catch (err) {
      setError(`This view cannot be opened: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const writeBack = useCallback(async () => {
    const current = modeler.current;
    if (!current) return;
    const { xml } = await current.saveXML({ format: true });
    const back = origin.current !== undefined && xml === origin.current.written;
    const next = back ? withOriginModel(latest.current.rule, origin.current!.rule) : withDmnXml(latest.current.rule, xml);
    if (dmnXml(next) === shown.current) return;
    shown.current = dmnXml(next);
    latest.current.onChange(next);
  }, []);

  useEffect(() => {
    // Made for the model's namespaces (DmnDesigner keys this component by them).
    const moddleExtensions = moddleExtensionsFor(namespaces);
    const created = new (readOnly ? DmnJsViewer : DmnJsModeler)({ container: host.current!, ...(moddleExtensions ? { moddleExtensions } : {}) });
    modeler.current = created;
    created.on('views.changed', ({ views: all, activeView }: { views: DmnView[]; activeView?: DmnView }) => {
      setViews([...all]);
      setActive(activeView);
      setHistory(historyOf(stackOf(created.getActiveViewer())));
    });
    created.on('viewer.created', ({ viewer }: { viewer: DmnViewer }) => {
      viewer.on('commandStack.changed', (event: { trigger?: string }) => {
        setHistory(historyOf(stackOf(viewer)));
        // `clear` is an import, not an edit.
        if (event.trigger !== 'clear') void writeBack().catch((err: unknown) => setError(`The model could not be written as XML: ${err instanceof Error ? err.message : String(err)}`));
      });
    });
    return () => {
      created.destroy();
      modeler.current = null;
      shown.current = null;
    };
    // namespaces: a change remounts this component (DmnDesigner keys it by them).
  }, [readOnly, writeBack]);

  const xml = dmnXml(rule);
  useEffect(() => {
    const current = modeler.current;
    if (!current || xml === shown.current) return;
    shown.current = xml;
    origin.current = undefined;
    const opened = latest.current.rule;
    const reopen = current.getActiveView();
    current.importXML(xml).then(
      async () => {
        setError(null);
        origin.current = { rule: opened, written: (await current.saveXML({ format: true })).xml };
        // Stay on the decision being edited when the draft is replaced (discarded or restored).
        const same = reopen && current.getViews().find((v) => v.type === reopen.type && v.element.id === reopen.element.id);
        if (same && same !== current.getActiveView()) void current.open(same);
      },
      (err: unknown) => setError(`dmn-js cannot show this model: ${err instanceof Error ? err.message : String(err)}. Save still keeps the XML as it is; export it to edit it elsewhere.`),
    );
  }, [xml, readOnly]);
  useEffect(() => {
    // A save answers the XML dmn-js wrote with the server's model: undoing edits made after it comes back to it.
    const o = origin.current;
    if (o && xml === shown.current && dmnXml(o.rule) !== xml && hasDmnModel(rule)) origin.current = { rule, written: xml };
  }, [rule, xml]);

  return (
    <div className="dt-designer dmn-designer">
      <div className="dmn-toolbar">
        <div className="dt-tabs" role="tablist" aria-label="DMN views" onKeyDown={moveBetweenTabs}>
          {views.map((view) => {
            const selected = active?.id === view.id && active.type === view.type;
            return (
              <button key={`${view.type}-${view.id}`} type="button" role="tab" id={`${id}-${view.type}-${view.id}`} aria-selected={selected}
                aria-controls={`${id}-canvas`} tabIndex={selected ? 0 : -1} onClick={() => void openView(view)}>
                {viewLabel(view)}
              </button>
            );
          })}
        </div>
        {!readOnly && (
          <div className="dmn-history">
            <button type="button" className="btn btn-small" disabled={!history.canUndo} onClick={() => commandStack()?.undo()}>Undo</button>
            <button type="button" className="btn btn-small" disabled={!history.canRedo} onClick={() => commandStack()?.redo()}>Redo</button>
          </div>
        )}
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div id={`${id}-canvas`} role="tabpanel" aria-label={active ? viewLabel(active) : 'DMN model'} className="dmn-canvas" ref={host} />
    </div>
  );
}
