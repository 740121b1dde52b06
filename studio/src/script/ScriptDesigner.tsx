// The scripting rule designer: the script in a JavaScript editor that knows the sandbox's API, the rule's models and
// the space's rules; the input and output models in the editor the tables use; and the sandbox API at a glance.
import { useEffect, useId, useMemo, useState } from 'react';
import type { DesignerProps } from '../kinds/types.ts';
import { useStudio } from '../app/context.ts';
import { ModelEditor } from '../designer/ModelEditor.tsx';
import { moveBetweenTabs } from '../designer/tabs.ts';
import type { Schema } from '../designer/model/schema.ts';
import { SCRIPT_API } from '../../../src/engine/script/api.ts';
import type { ScriptApiEntry } from '../../../src/engine/script/api.ts';
import { ScriptEditor } from './ScriptEditor.tsx';
import type { ScriptScope } from './completions.ts';
import { scriptProblems } from './model.ts';
import '../designer/designer.css';

type Tab = 'script' | 'input' | 'output';
const TABS: readonly (readonly [Tab, string])[] = [['script', 'Script'], ['input', 'Input model'], ['output', 'Output model']];

export function ScriptDesigner({ rule, onChange, problems, readOnly }: DesignerProps) {
  const { api } = useStudio();
  const id = useId();
  const [tab, setTab] = useState<Tab>('script');
  const [rules, setRules] = useState<ScriptScope['rules']>([]);
  useEffect(() => {
    let live = true;
    // Only for completing DR.solve('…'): a failed listing leaves the aliases out and nothing else.
    api.listItems().then((items) => {
      const byAlias = new Map(items.filter((i) => i.ruleAlias && i.ruleId !== rule.ruleId).map((i) => [i.ruleAlias!, { alias: i.ruleAlias!, name: i.name, type: i.type }]));
      if (live) setRules([...byAlias.values()]);
    }, () => undefined);
    return () => { live = false; };
  }, [api, rule.ruleId]);

  const scope = useMemo<ScriptScope>(
    () => ({ inputSchema: rule.inputSchema, outputSchema: rule.outputSchema, userVariables: rule.userVariables, rules }),
    [rule.inputSchema, rule.outputSchema, rule.userVariables, rules],
  );
  const serverProblems = useMemo(() => scriptProblems(problems), [problems]);

  return (
    <div className="dt-designer sc-designer">
      <div className="dt-tabs dt-main-tabs" role="tablist" aria-label="Designer view" onKeyDown={moveBetweenTabs}>
        {TABS.map(([tabId, label]) => (
          <button key={tabId} type="button" role="tab" id={`${id}-tab-${tabId}`} aria-selected={tab === tabId} aria-controls={`${id}-panel-${tabId}`}
            tabIndex={tab === tabId ? 0 : -1} onClick={() => setTab(tabId)}>
            {label}
          </button>
        ))}
      </div>
      <div id={`${id}-panel-${tab}`} role="tabpanel" aria-labelledby={`${id}-tab-${tab}`} className="dt-panel">
        {tab === 'script' ? (
          <div className="sc-layout">
            <ScriptEditor
              label="Script"
              value={typeof rule.script === 'string' ? rule.script : ''}
              onChange={(script) => onChange({ ...rule, script })}
              scope={scope}
              serverProblems={serverProblems}
              readOnly={readOnly}
            />
            <ApiReference />
          </div>
        ) : (
          <ModelEditor
            key={tab}
            label={tab === 'input' ? 'Input model' : 'Output model'}
            schema={tab === 'input' ? rule.inputSchema : rule.outputSchema}
            readOnly={!!readOnly}
            onChange={(schema: Schema) => onChange({ ...rule, [tab === 'input' ? 'inputSchema' : 'outputSchema']: schema })}
          />
        )}
      </div>
    </div>
  );
}

function apiRows(entries: readonly ScriptApiEntry[], prefix = ''): { name: string; signature: string; doc: string }[] {
  return entries.flatMap((entry) => {
    const name = prefix + entry.name;
    // SolverStrategy's constants are named by its own line
    if (entry.kind === 'string') return [];
    const members = entry.members ?? [];
    const argumentLists = new Set(members.map((m) => m.signature?.slice(m.signature.indexOf('('))));
    // members that differ only in name (console.log, .warn, …) share one line
    if (members.length > 1 && argumentLists.size === 1 && !argumentLists.has(undefined)) {
      return [{ name, signature: `${name}.{${members.map((m) => m.name).join(', ')}}${[...argumentLists][0]}`, doc: entry.doc }];
    }
    return [{ name, signature: entry.signature ?? name, doc: entry.doc }, ...apiRows(members, `${name}.`)];
  });
}

/** The sandbox's globals with their signatures, from the list the completions use. */
function ApiReference() {
  return (
    <aside className="sc-api" aria-label="Script API">
      <h2>Script API</h2>
      <p className="dt-muted">Type a name, or press <kbd>Ctrl</kbd>+<kbd>Space</kbd>, for completions; <code>input.</code> offers the input model&apos;s fields. <kbd>Tab</kbd> indents: press <kbd>Esc</kbd> first to move on.</p>
      <dl>
        {apiRows(SCRIPT_API).map(({ name, signature, doc }) => (
          <div key={name}>
            <dt><code>{signature}</code></dt>
            <dd>{doc}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
