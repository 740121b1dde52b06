// CodeMirror JSON editor with lint: the raw model view and JSON result cells. `check` adds a rule of its own
// on top of JSON syntax (e.g. "leaves are {}" for models).
import { useEffect, useRef } from 'react';
import { Annotation, EditorState } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { editorNonce } from '../csp-nonce.ts';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import type { Diagnostic } from '@codemirror/lint';
import { bracketMatching, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';


/** Marks a document replaced from the `value` prop, so it is not reported through onChange. */
const External = Annotation.define<boolean>();
export interface JsonEditorProps {
  label: string;
  value: string;
  onChange(text: string): void;
  readOnly?: boolean;
  /** A further problem of valid JSON, reported on the whole text. */
  check?(text: string): string | undefined;
  onSubmit?(): void;
  autoFocus?: boolean;
  tall?: boolean;
}

export function JsonEditor(props: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const parse = jsonParseLinter();
    const extensions: Extension[] = [
      editorNonce(),
      history(),
      json(),
      bracketMatching(),
      syntaxHighlighting(defaultHighlightStyle),
      linter((v): Diagnostic[] => {
        const found = parse(v);
        if (found.length > 0) return found;
        const problem = latest.current.check?.(v.state.doc.toString());
        return problem ? [{ from: 0, to: v.state.doc.length, severity: 'error', message: problem }] : [];
      }, { delay: 150 }),
      lintGutter(),
      keymap.of([
        { key: 'Mod-Enter', run: () => (latest.current.onSubmit ? (latest.current.onSubmit(), true) : false) },
        ...historyKeymap,
        ...lintKeymap,
        ...defaultKeymap,
      ]),
      EditorView.contentAttributes.of({ 'aria-label': props.label }),
      EditorState.readOnly.of(!!props.readOnly),
      EditorView.editable.of(!props.readOnly),
      EditorView.theme({
        '&': { fontSize: '13px', border: '1px solid var(--dt-border, #c5cbd3)', borderRadius: '4px', backgroundColor: '#fff' },
        '&.cm-focused': { outline: '2px solid var(--dt-focus, #2563eb)', outlineOffset: '1px' },
        '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        '.cm-scroller': { maxHeight: props.tall ? '60vh' : '240px', minHeight: props.tall ? '240px' : '80px' },
      }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.some((t) => t.annotation(External))) latest.current.onChange(u.state.doc.toString());
      }),
    ];
    if (props.tall) extensions.push(lineNumbers());
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: latest.current.value, extensions }) });
    view.current = v;
    if (latest.current.autoFocus) v.focus();
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [props.label, props.readOnly, props.tall]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value }, annotations: External.of(true) });
  }, [props.value]);

  return <div className="dt-json" ref={host} />;
}
