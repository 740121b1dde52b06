// CodeMirror 6 JavaScript editor for rule scripts. JavaScript's own help stays (keywords, snippets, names the script
// declares); completions.ts adds the sandbox's API, the rule's model fields and the space's rule aliases, the
// signature of the API call under the cursor, and underlines syntax errors, members the sandbox lacks and the lines
// the server refused on save.
import { useEffect, useRef, useState } from 'react';
import { Annotation, EditorState } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { editorNonce } from '../csp-nonce.ts';
import { EditorView, keymap, lineNumbers, placeholder as placeholderExt } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { forceLinting, linter, lintGutter, lintKeymap } from '@codemirror/lint';
import type { Diagnostic } from '@codemirror/lint';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting, syntaxTree } from '@codemirror/language';
import { javascript, javascriptLanguage } from '@codemirror/lang-javascript';
import { scriptCompletions, signatureAt, unknownMembers } from './completions.ts';
import type { ScriptOption, ScriptScope } from './completions.ts';

/** Marks a document replaced from the `value` prop, so it is not reported through onChange. */
const External = Annotation.define<boolean>();

export interface ScriptEditorProps {
  label: string;
  value: string;
  onChange(text: string): void;
  /** Models, variables and rules the completions offer; read at completion time, so changes need no rebuild. */
  scope: ScriptScope;
  /** Problems the server reported for the script on the last save, at their 1-based line when it named one. */
  serverProblems: readonly { line?: number; message: string }[];
  readOnly?: boolean;
}

function where(context: CompletionContext): 'code' | 'string' | 'comment' {
  const node = syntaxTree(context.state).resolveInner(context.pos, -1);
  if (/Comment/.test(node.name)) return 'comment';
  if (node.name === 'String' || node.name === 'TemplateString') return 'string';
  return 'code';
}

function toCompletion(option: ScriptOption): Completion {
  const { applyFrom, apply, ...rest } = option;
  if (applyFrom === undefined) return { ...rest, apply };
  return {
    ...rest,
    apply: (view, _completion, _from, to) => view.dispatch({ changes: { from: applyFrom, to, insert: apply ?? option.label }, selection: { anchor: applyFrom + (apply ?? option.label).length } }),
  };
}

function syntaxErrors(view: EditorView): Diagnostic[] {
  const found: Diagnostic[] = [];
  syntaxTree(view.state).iterate({
    enter: (node) => {
      if (!node.type.isError || found.length > 0) return;
      const from = Math.min(node.from, view.state.doc.length);
      const line = view.state.doc.lineAt(from);
      found.push({ from, to: Math.max(node.to, Math.min(from + 1, line.to)), severity: 'error', message: `Syntax error on line ${line.number}`, source: 'JavaScript' });
    },
  });
  return found;
}

export function ScriptEditor(props: ScriptEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const [signature, setSignature] = useState<{ signature: string; doc: string } | undefined>(undefined);

  useEffect(() => {
    const source = (context: CompletionContext): CompletionResult | null => {
      const found = scriptCompletions(context.state.doc.toString(), context.pos, latest.current.scope, where(context), context.explicit);
      return found && { from: found.from, options: found.options.map(toCompletion), validFor: found.validFor };
    };
    const extensions: Extension[] = [
      editorNonce(),
      history(),
      lineNumbers(),
      javascript(),
      javascriptLanguage.data.of({ autocomplete: source }),
      autocompletion({ icons: false }),
      syntaxHighlighting(defaultHighlightStyle),
      bracketMatching(),
      indentOnInput(),
      linter((v) => [
        ...syntaxErrors(v),
        ...unknownMembers(v.state.doc.toString()).map((p): Diagnostic => ({ ...p, severity: 'warning', source: 'Verdict sandbox' })),
        ...latest.current.serverProblems.map((p): Diagnostic => {
          const line = v.state.doc.line(Math.min(Math.max(1, p.line ?? 1), v.state.doc.lines));
          return { from: line.from, to: line.to, severity: 'error', message: p.message, source: 'Server (last save)' };
        }),
      ], { delay: 200 }),
      lintGutter(),
      keymap.of([...completionKeymap, indentWithTab, ...historyKeymap, ...lintKeymap, ...defaultKeymap]),
      EditorView.contentAttributes.of({ 'aria-label': props.label, 'aria-multiline': 'true' }),
      EditorState.readOnly.of(!!props.readOnly),
      EditorView.editable.of(!props.readOnly),
      placeholderExt('return output;'),
      EditorView.theme({
        '&': { fontSize: '13px', border: '1px solid var(--dt-border, #c5cbd3)', borderRadius: '4px', backgroundColor: '#fff', height: '100%' },
        '&.cm-focused': { outline: '2px solid var(--dt-focus, #2563eb)', outlineOffset: '1px' },
        '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        '.cm-scroller': { minHeight: '320px' },
        '.cm-tooltip-autocomplete .cm-completionDetail': { fontStyle: 'normal', color: '#64748b', marginLeft: '1em' },
      }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.some((t) => t.annotation(External))) latest.current.onChange(u.state.doc.toString());
        if (u.docChanged || u.selectionSet) setSignature(signatureAt(u.state.doc.toString(), u.state.selection.main.head));
      }),
    ];
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: latest.current.value, extensions }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [props.label, props.readOnly]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value }, annotations: External.of(true) });
  }, [props.value]);

  // the lint source reads the server's problems when it runs: run it again when a save brought new ones
  useEffect(() => {
    if (view.current) forceLinting(view.current);
  }, [props.serverProblems]);

  return (
    <div className="sc-editor">
      <div className="sc-editor-host" ref={host} />
      <div className="dt-expr-status" role="status" aria-live="polite">
        {signature && <><span className="dt-expr-signature">{signature.signature}</span> <span className="dt-muted">{signature.doc}</span></>}
      </div>
    </div>
  );
}
