// The input / output model editor: a tree (add, rename, delete, nest fields) and the raw JSON, as DecisionRules
// offers both. The model format has no field types (leaves are `{}`, spec §1.3), so there is nothing to type.
import { useState } from 'react';
import { addField, deleteField, fieldNameProblem, flattenSchema, renameField, schemaTextProblem } from './model/schema.ts';
import type { Schema } from './model/schema.ts';
import { JsonEditor } from './JsonEditor.tsx';
import { moveBetweenTabs } from './tabs.ts';

export interface ModelEditorProps {
  label: string;
  schema: unknown;
  readOnly: boolean;
  onChange(schema: Schema): void;
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value ?? {});
  } catch {
    return false;
  }
}

export function ModelEditor({ label, schema, readOnly, onChange }: ModelEditorProps) {
  const [view, setView] = useState<'tree' | 'json'>('tree');
  const [text, setText] = useState(() => JSON.stringify(schema ?? {}, null, 2));
  const [lastSchema, setLastSchema] = useState(schema);
  if (schema !== lastSchema) {
    // the document changed outside the JSON view (tree edit, undo): show it, unless the text already says the same
    setLastSchema(schema);
    if (!sameJson(text, schema)) setText(JSON.stringify(schema ?? {}, null, 2));
  }
  return (
    <section className="dt-model" aria-label={label}>
      <div className="dt-tabs" role="tablist" aria-label={`${label} view`} onKeyDown={moveBetweenTabs}>
        <button type="button" role="tab" aria-selected={view === 'tree'} tabIndex={view === 'tree' ? 0 : -1} onClick={() => setView('tree')}>
          Tree
        </button>
        <button type="button" role="tab" aria-selected={view === 'json'} tabIndex={view === 'json' ? 0 : -1} onClick={() => setView('json')}>
          JSON
        </button>
      </div>
      {view === 'tree' ? (
        <SchemaTree label={label} schema={schema} readOnly={readOnly} onChange={onChange} />
      ) : (
        <JsonEditor
          label={`${label} JSON`}
          value={text}
          readOnly={readOnly}
          tall
          check={schemaTextProblem}
          onChange={(next) => {
            setText(next);
            if (!schemaTextProblem(next)) onChange(JSON.parse(next) as Schema);
          }}
        />
      )}
    </section>
  );
}

function SchemaTree({ label, schema, readOnly, onChange }: { label: string; schema: unknown; readOnly: boolean; onChange(s: Schema): void }) {
  const nodes = flattenSchema(schema);
  const [adding, setAdding] = useState<{ parent: string[]; name: string } | null>(null);
  const [renaming, setRenaming] = useState<{ path: string[]; name: string } | null>(null);
  const addProblem = adding ? fieldNameProblem(schema, adding.parent, adding.name) : undefined;
  const renameProblem = renaming ? fieldNameProblem(schema, renaming.path.slice(0, -1), renaming.name, renaming.path[renaming.path.length - 1]) : undefined;

  const addRow = (depth: number) =>
    adding && (
      <li className="dt-tree-item" style={{ paddingLeft: depth * 18 }}>
        <input
          autoFocus
          aria-label="New field name"
          aria-invalid={adding.name !== '' && addProblem ? true : undefined}
          value={adding.name}
          onChange={(e) => setAdding({ ...adding, name: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !addProblem) {
              onChange(addField(schema, adding.parent, adding.name));
              setAdding(null);
            } else if (e.key === 'Escape') setAdding(null);
          }}
        />
        <button type="button" disabled={!!addProblem} onClick={() => { onChange(addField(schema, adding.parent, adding.name)); setAdding(null); }}>
          Add
        </button>
        <button type="button" onClick={() => setAdding(null)}>
          Cancel
        </button>
        {adding.name !== '' && addProblem && <span className="dt-error-text">{addProblem}</span>}
      </li>
    );

  return (
    <div className="dt-tree">
      <ul aria-label={`${label} fields`}>
        {nodes.length === 0 && <li className="dt-muted">No fields yet.</li>}
        {nodes.map((node) => {
          const key = node.path.join('.');
          const isRenaming = renaming && renaming.path.join('.') === key;
          return (
            <li key={key}>
              <div className="dt-tree-item" style={{ paddingLeft: node.depth * 18 }}>
                <span className="dt-tree-icon" aria-hidden="true">{node.leaf ? '•' : '▾'}</span>
                {isRenaming ? (
                  <>
                    <input
                      autoFocus
                      aria-label={`Rename ${key}`}
                      value={renaming.name}
                      onChange={(e) => setRenaming({ ...renaming, name: e.target.value })}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' && !renameProblem) {
                          onChange(renameField(schema, renaming.path, renaming.name));
                          setRenaming(null);
                        } else if (e.key === 'Escape') setRenaming(null);
                      }}
                    />
                    <button type="button" disabled={!!renameProblem} onClick={() => { onChange(renameField(schema, renaming.path, renaming.name)); setRenaming(null); }}>
                      Save
                    </button>
                    {renameProblem && <span className="dt-error-text">{renameProblem}</span>}
                  </>
                ) : (
                  <span className="dt-tree-name">{node.name}</span>
                )}
                <span className="dt-muted dt-tree-path">{key}</span>
                {!readOnly && !isRenaming && (
                  <span className="dt-tree-actions">
                    <button type="button" aria-label={`Add field under ${key}`} onClick={() => setAdding({ parent: node.path, name: '' })}>
                      + child
                    </button>
                    <button type="button" aria-label={`Rename field ${key}`} onClick={() => setRenaming({ path: node.path, name: node.name })}>
                      Rename
                    </button>
                    <button type="button" aria-label={`Delete field ${key}`} onClick={() => onChange(deleteField(schema, node.path))}>
                      Delete
                    </button>
                  </span>
                )}
              </div>
              {adding && adding.parent.join('.') === key && <ul>{addRow(node.depth + 1)}</ul>}
            </li>
          );
        })}
        {adding && adding.parent.length === 0 && addRow(0)}
      </ul>
      {!readOnly && (
        <button type="button" onClick={() => setAdding({ parent: [], name: '' })}>
          Add field
        </button>
      )}
    </div>
  );
}
