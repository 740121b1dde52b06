// The decision tree designer: an outline of the tree (WAI-ARIA tree: arrow keys move, Left/Right fold) where
// each node has Add / Move up / Move down / Delete / Collapse buttons named after it and a drag handle to
// reorder it among its siblings; the selected condition or result opens its form under its line. Server
// problems sit on the node they name; the last bench run marks each node taken, not taken or not reached.
// Undo/redo and the input/output model tabs are the table designer's.
import { useMemo, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import '../designer/designer.css';
import './tree.css';
import type { DesignerProps } from '../kinds/types.ts';
import type { RuleDocument } from '../api/types.ts';
import { ModelEditor } from '../designer/ModelEditor.tsx';
import { moveBetweenTabs } from '../designer/tabs.ts';
import { leafPaths } from '../designer/model/schema.ts';
import type { Schema } from '../designer/model/schema.ts';
import { useDocumentHistory } from '../designer/useDocumentHistory.ts';
import {
  addNode, allowedChildren, branchKeys, canMove, childrenOf, deleteNode, lanePositions, makeNode, moveNode, nodeAt, nodeKey, nodeLabel,
  nodeSummary, outlineRows, reorderNode, TYPE_WORD, updateNode,
} from './model.ts';
import type { NodePath, OutlineRow, TreeNode, TreeNodeType } from './model.ts';
import { locateTreeProblems, outcomeOf, outcomeText, readTreeTrace } from './overlay.ts';
import { AddMenu } from './AddMenu.tsx';
import { NodeEditor } from './NodeEditor.tsx';

type Tab = 'tree' | 'input' | 'output';

function samePath(a: NodePath | null, b: NodePath | null): boolean {
  return a !== null && b !== null && a.length === b.length && a.every((v, i) => v === b[i]);
}

function isEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

/** The first condition or result inside a node just added: where the author types next. */
function firstLeaf(rule: RuleDocument, path: number[]): number[] {
  let at = path;
  for (let node = nodeAt(rule, at); node && childrenOf(node).length > 0; node = nodeAt(rule, at)) at = [...at, 0];
  return at;
}

export function TreeDesigner(props: DesignerProps) {
  const readOnly = !!props.readOnly;
  const history = useDocumentHistory(props.rule, props.onChange, readOnly);
  const { apply, step: stepHistory } = history;
  const rule = history.present;
  const [tab, setTab] = useState<Tab>('tree');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<number[] | null>(null);
  const [focusPath, setFocusPath] = useState(false);
  const [dragging, setDragging] = useState<number[] | null>(null);
  const [dropAt, setDropAt] = useState<number[] | null>(null);
  const [status, setStatus] = useState('');
  const tree = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => outlineRows(rule, collapsed), [rule, collapsed]);
  const problems = useMemo(() => locateTreeProblems(rule, props.problems ?? []), [rule, props.problems]);
  const trace = useMemo(() => (props.trace === undefined ? undefined : readTreeTrace(props.trace)), [props.trace]);
  const inputPaths = useMemo(() => leafPaths(rule.inputSchema), [rule.inputSchema]);
  const outputPaths = useMemo(() => leafPaths(rule.outputSchema), [rule.outputSchema]);
  const variables = useMemo(() => {
    const names = new Set<string>(inputPaths);
    for (const p of outputPaths) names.add(p);
    for (const v of Array.isArray(rule.userVariables) ? rule.userVariables : []) if (typeof v?.name === 'string') names.add(v.name);
    return [...names].sort();
  }, [inputPaths, outputPaths, rule.userVariables]);

  const step = (direction: 'undo' | 'redo') => {
    if (!stepHistory(direction)) return;
    setStatus(direction === 'undo' ? 'Undone' : 'Redone');
  };

  const focusRow = (path: number[]) => requestAnimationFrame(() => tree.current?.querySelector<HTMLElement>(`[data-path="${path.join('.')}"]`)?.focus());

  const add = (parent: number[], type: TreeNodeType) => {
    const added = addNode(rule, parent, makeNode(type));
    if (!added) return;
    apply(added.rule);
    const leaf = firstLeaf(added.rule, added.path);
    setCollapsed((c) => { const next = new Set(c); for (let i = 1; i <= leaf.length; i++) next.delete(nodeKey(nodeAt(added.rule, leaf.slice(0, i))!, leaf.slice(0, i))); return next; });
    setSelected(leaf);
    const leafNode = nodeAt(added.rule, leaf);
    setFocusPath(leafNode?.type === 'condition' || leafNode?.type === 'result');
    if (!(leafNode?.type === 'condition' || leafNode?.type === 'result')) focusRow(leaf);
    setStatus(`Added ${TYPE_WORD[type] ?? type}`);
  };
  const remove = (path: number[], label: string) => {
    apply(deleteNode(rule, path));
    setSelected(path.length > 1 ? path.slice(0, -1) : null);
    setStatus(`Deleted ${label}`);
    if (path.length > 1) focusRow(path.slice(0, -1));
  };
  const move = (path: number[], delta: -1 | 1) => {
    const moved = moveNode(rule, path, delta);
    apply(moved.rule);
    setSelected(moved.path);
    setFocusPath(false);
  };
  const toggle = (key: string) => setCollapsed((c) => { const next = new Set(c); if (!next.delete(key)) next.add(key); return next; });

  /** Where a drop on `row` puts the dragged node: the row's place, if it is a sibling in the same lane. */
  const dropIndex = (row: OutlineRow): number | undefined => {
    if (!dragging || !samePath(dragging.slice(0, -1), row.path.slice(0, -1)) || samePath(dragging, row.path)) return undefined;
    const index = row.path[row.path.length - 1]!;
    return lanePositions(rule, dragging).includes(index) ? index : undefined;
  };

  const onTreeKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (isEditable(e.target) || (e.target as HTMLElement).closest('.tr-editor, [role="menu"]')) return;
    const at = rows.findIndex((r) => samePath(r.path, selected));
    const row = rows[at];
    let next: OutlineRow | undefined;
    if (e.key === 'ArrowDown') next = rows[Math.min(at + 1, rows.length - 1)] ?? rows[0];
    else if (e.key === 'ArrowUp') next = rows[Math.max(at - 1, 0)];
    else if (e.key === 'Home') next = rows[0];
    else if (e.key === 'End') next = rows[rows.length - 1];
    else if (e.key === 'ArrowRight' && row?.hasChildren) {
      if (row.collapsed) toggle(row.key);
      else next = rows[at + 1];
    } else if (e.key === 'ArrowLeft' && row) {
      if (row.hasChildren && !row.collapsed) toggle(row.key);
      else if (row.path.length > 1) next = rows.find((r) => samePath(r.path, row.path.slice(0, -1)));
    } else if ((e.key === 'z' || e.key === 'Z') && (e.ctrlKey || e.metaKey)) step(e.shiftKey ? 'redo' : 'undo');
    else if (e.key === 'y' && (e.ctrlKey || e.metaKey)) step('redo');
    else return;
    e.preventDefault();
    if (next) {
      setSelected(next.path);
      setFocusPath(false);
      focusRow(next.path);
    }
  };

  const tabs: ReadonlyArray<readonly [Tab, string]> = [['tree', 'Tree'], ['input', 'Input model'], ['output', 'Output model']];
  const outlineCount = rows.length;
  const problemCount = (props.problems ?? []).length;

  return (
    <div className="dt-designer tr-designer">
      <div className="dt-tabs dt-main-tabs" role="tablist" aria-label="Designer view" onKeyDown={moveBetweenTabs}>
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" id={`tree-tab-${id}`} aria-selected={tab === id} aria-controls={`tree-panel-${id}`}
            tabIndex={tab === id ? 0 : -1} onClick={() => setTab(id)}>{label}</button>
        ))}
      </div>
      {tab === 'tree' ? (
        <div id="tree-panel-tree" role="tabpanel" aria-labelledby="tree-tab-tree" className="dt-panel">
          <div className="tr-toolbar" role="toolbar" aria-label="Tree tools">
            {!readOnly && <AddMenu label="Add node" className="dt-primary" types={allowedChildren(undefined)} onPick={(type) => add([], type)} />}
            <button type="button" disabled={readOnly || !history.canUndo} onClick={() => step('undo')}>Undo</button>
            <button type="button" disabled={readOnly || !history.canRedo} onClick={() => step('redo')}>Redo</button>
            <button type="button" disabled={outlineCount === 0} onClick={() => setCollapsed(new Set(branchKeys(rule)))}>Collapse all</button>
            <button type="button" disabled={collapsed.size === 0} onClick={() => setCollapsed(new Set())}>Expand all</button>
            {trace && (
              <span className="tr-legend" aria-label="Last bench run">
                Last run: <span className="tr-outcome tr-taken">taken</span> <span className="tr-outcome tr-declined">not taken</span> <span className="tr-outcome tr-not-reached">not reached</span>
              </span>
            )}
            <span role="status" aria-live="polite" className="dt-status-message">{status}</span>
          </div>
          {problemCount > 0 && (
            <div className="tr-problem-summary" role="alert">
              {problemCount} problem{problemCount === 1 ? '' : 's'} from the last save{problems.byNode.size > 0 ? ', shown on their nodes' : ''}.
              {problems.other.length > 0 && <ul>{problems.other.map((p, i) => <li key={i}><code>{p.path || '(rule)'}</code> {p.message}</li>)}</ul>}
            </div>
          )}
          {outlineCount === 0 ? (
            <div className="tr-empty">
              <strong>This tree has no node yet.</strong>
              <p>Blocks run top to bottom: an IF runs what it holds when all its conditions hold, an ELSE runs when no IF above it did, a THEN writes its results.
                {readOnly ? '' : ' Start with Add node.'}</p>
            </div>
          ) : (
            <div className="tr-outline" role="tree" aria-label="Decision tree" ref={tree} onKeyDown={onTreeKey}>
              {rows.map((row) => {
                const label = nodeLabel(row.node);
                const isSelected = samePath(row.path, selected);
                const messages = problems.byNode.get(row.key) ?? [];
                const outcome = trace ? outcomeOf(trace, row.key) : undefined;
                const traced = trace?.get(row.key);
                const target = dropIndex(row);
                const editable = row.node.type === 'condition' || row.node.type === 'result';
                const describedBy = [outcome && `tr-outcome-${row.key}`, messages.length > 0 && `tr-problems-${row.key}`].filter(Boolean).join(' ') || undefined;
                return (
                  <div key={row.key} role="treeitem" data-path={row.path.join('.')} aria-level={row.level} aria-posinset={row.position} aria-setsize={row.siblings}
                    aria-selected={isSelected} aria-expanded={row.hasChildren ? !row.collapsed : undefined} aria-label={label} aria-describedby={describedBy}
                    aria-invalid={messages.length > 0 || undefined} tabIndex={isSelected || (selected === null && row.path.length === 1 && row.position === 1) ? 0 : -1}
                    className={`tr-node tr-type-${row.node.type}${isSelected ? ' is-selected' : ''}${outcome ? ` tr-run-${outcome}` : ''}${messages.length ? ' has-problem' : ''}${samePath(dropAt, row.path) && target !== undefined ? ' is-drop-target' : ''}`}
                    onClick={() => { if (!isSelected) { setSelected(row.path); setFocusPath(false); } }}
                    onDragOver={(e) => { if (target === undefined) return; e.preventDefault(); e.dataTransfer.dropEffect = 'move'; setDropAt(row.path); }}
                    onDragLeave={() => setDropAt(null)}
                    onDrop={(e) => {
                      e.preventDefault();
                      setDropAt(null);
                      if (!dragging || target === undefined) return;
                      const moved = reorderNode(rule, dragging, target);
                      apply(moved.rule);
                      setSelected(moved.path);
                      setDragging(null);
                      setStatus(`Moved ${nodeLabel(nodeAt(moved.rule, moved.path) ?? row.node)}`);
                    }}>
                    <div className="tr-line" style={{ paddingLeft: (row.level - 1) * 22 }}>
                      {!readOnly && (
                        <span className="tr-handle" draggable aria-hidden="true" title="Drag to reorder among its siblings"
                          onDragStart={(e) => { e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', label); setDragging(row.path); }}
                          onDragEnd={() => { setDragging(null); setDropAt(null); }}>⠿</span>
                      )}
                      {row.hasChildren ? (
                        <button type="button" className="tr-fold" tabIndex={-1} aria-label={`${row.collapsed ? 'Expand' : 'Collapse'} ${label}`}
                          onClick={(e) => { e.stopPropagation(); toggle(row.key); }}>{row.collapsed ? '▸' : '▾'}</button>
                      ) : <span className="tr-fold-space" />}
                      <span className="tr-word">{TYPE_WORD[row.node.type] ?? row.node.type}</span>
                      {row.node.type === 'if' && !row.collapsed
                        ? <span className="tr-summary tr-muted">when all its conditions hold</span>
                        : <span className="tr-summary">{nodeSummary(row.node)}</span>}
                      {outcome && (
                        <span id={`tr-outcome-${row.key}`} className={`tr-outcome tr-${outcome === 'declined' ? 'declined' : outcome === 'taken' ? 'taken' : 'not-reached'}`}
                          title={traced?.inputValue !== undefined ? `input: ${JSON.stringify(traced.inputValue)}` : undefined}>
                          {outcomeText(row.node.type, outcome)}{traced?.error ? ` (${traced.error})` : ''}
                        </span>
                      )}
                      {!readOnly && (
                        <span className="tr-actions">
                          {allowedChildren(row.node.type).length > 0 && (
                            <AddMenu label={`Add to ${label}`} text="+" types={allowedChildren(row.node.type)} onPick={(type) => add(row.path, type)} />
                          )}
                          <button type="button" aria-label={`Move ${label} up`} disabled={!canMove(rule, row.path, -1)} onClick={(e) => { e.stopPropagation(); move(row.path, -1); }}>↑</button>
                          <button type="button" aria-label={`Move ${label} down`} disabled={!canMove(rule, row.path, 1)} onClick={(e) => { e.stopPropagation(); move(row.path, 1); }}>↓</button>
                          <button type="button" className="dt-danger" aria-label={`Delete ${label}`} onClick={(e) => { e.stopPropagation(); remove(row.path, label); }}>✕</button>
                        </span>
                      )}
                    </div>
                    {messages.length > 0 && (
                      <ul id={`tr-problems-${row.key}`} className="tr-problems" style={{ marginLeft: (row.level - 1) * 22 + 44 }}>
                        {messages.map((m, i) => <li key={i}>{m}</li>)}
                      </ul>
                    )}
                    {isSelected && editable && !readOnly && (
                      <div style={{ marginLeft: (row.level - 1) * 22 + 44 }} onClick={(e) => e.stopPropagation()}>
                        <NodeEditor key={row.key} node={row.node} label={label} inputPaths={inputPaths} outputPaths={outputPaths} variables={variables}
                          focusPath={focusPath}
                          onChange={(next: TreeNode) => apply(updateNode(rule, row.path, () => next), { coalesceKey: `node:${row.key}` })}
                          onClose={() => { setSelected(row.path); setFocusPath(false); focusRow(row.path); }} />
                      </div>
                    )}
                  </div>
                );
              })}
            </div>
          )}
        </div>
      ) : (
        <div id={`tree-panel-${tab}`} role="tabpanel" aria-labelledby={`tree-tab-${tab}`} className="dt-panel">
          <ModelEditor key={tab} label={tab === 'input' ? 'Input model' : 'Output model'} schema={tab === 'input' ? rule.inputSchema : rule.outputSchema}
            readOnly={readOnly}
            onChange={(schema: Schema) => apply({ ...rule, [tab === 'input' ? 'inputSchema' : 'outputSchema']: schema }, { coalesceKey: `model:${tab}` })} />
        </div>
      )}
    </div>
  );
}
