// CodeMirror 6 editor for the expression language: highlighting from the engine's lexer, completion of function
// names (with their signatures) and of model variables after `{`, and the parser's errors underlined as you type.
// With `language: 'zen'` (decision graphs) it edits GoRules ZEN text: ZEN's lexer highlights, ZEN's parser finds
// syntax errors (unary tests in a table column with a field), and ZEN's functions (date methods after a dot) complete.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Annotation, EditorState, RangeSetBuilder } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { editorNonce } from '../csp-nonce.ts';
import { Decoration, EditorView, ViewPlugin, keymap, placeholder as placeholderExt } from '@codemirror/view';
import type { DecorationSet, ViewUpdate } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { linter, lintKeymap } from '@codemirror/lint';
import type { Diagnostic } from '@codemirror/lint';
import { callAt, expressionProblems, functionCatalog, tokenizeExpression } from './model/expression.ts';
import { lineAndColumn } from '../../../src/engine/expression/lexer.ts';
import { zenFunctionNames, zenMethodNames, zenProblems, zenTokens } from '../graph/model/zen.ts';


/** Marks a document replaced from the `value` prop, so it is not reported through onChange. */
const External = Annotation.define<boolean>();
export interface ExpressionEditorProps {
  value: string;
  onChange(v: string): void;
  label: string;
  readOnly?: boolean;
  /** Variable paths offered after `{` (model leaves, calc variables). */
  variables?: readonly string[];
  /** Ctrl/Cmd+Enter. */
  onSubmit?(): void;
  /** Escape (when no completion is open). */
  onCancel?(): void;
  autoFocus?: boolean;
  /** One line high, growing as needed (cells), or a taller box. */
  compact?: boolean;
  /** The language: DecisionRules expressions (the default) or GoRules ZEN (decision graphs). */
  language?: 'decisionrules' | 'zen';
  /** ZEN only: the text is a unary test of `$` (a table cell under a column with a field). */
  unary?: boolean;
}

interface Language {
  tokens(text: string): ReturnType<typeof tokenizeExpression>;
  problems(text: string): ReturnType<typeof expressionProblems>;
}

const DECISIONRULES: Language = { tokens: tokenizeExpression, problems: expressionProblems };
const ZEN_STANDARD: Language = { tokens: zenTokens, problems: (text) => zenProblems(text, false) };
const ZEN_UNARY: Language = { tokens: zenTokens, problems: (text) => zenProblems(text, true) };

function languageOf(props: Pick<ExpressionEditorProps, 'language' | 'unary'>): Language {
  return props.language === 'zen' ? (props.unary ? ZEN_UNARY : ZEN_STANDARD) : DECISIONRULES;
}

const MARKS = Object.fromEntries(
  ['string', 'number', 'variable', 'function', 'unknownFunction', 'keyword', 'operator', 'punctuation', 'word'].map((t) => [t, Decoration.mark({ class: `cm-x-${t}` })]),
);

function highlight(view: EditorView, language: Language): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const token of language.tokens(view.state.doc.toString())) builder.add(token.from, token.to, MARKS[token.type]!);
  return builder.finish();
}

/** Highlighting driven by the engine's scanner (the language is context-sensitive, so no grammar file). */
function engineHighlighting(language: Language) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = highlight(view, language);
      }
      update(update: ViewUpdate) {
        if (update.docChanged) this.decorations = highlight(update.view, language);
      }
    },
    { decorations: (v) => v.decorations },
  );
}

const FUNCTION_OPTIONS: Completion[] = functionCatalog().map((f) => ({
  label: f.name,
  type: 'function',
  detail: f.signature,
  info: `${f.group} function${f.aliases.length ? ` · also ${f.aliases.join(', ')}` : ''} · ${f.min === f.max ? f.min : f.max === Infinity ? `${f.min}+` : `${f.min}–${f.max}`} argument(s)`,
  apply: `${f.name}(`,
}));

function completionSource(variables: readonly string[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const variable = context.matchBefore(/\{[\p{L}\p{N}_.$[\]-]*/u);
    if (variable) {
      return {
        from: variable.from + 1,
        options: variables.map((v) => ({ label: v, type: 'variable', apply: `${v}}` })),
        validFor: /^[\p{L}\p{N}_.$[\]-]*$/u,
      };
    }
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return { from: word.from, options: FUNCTION_OPTIONS, validFor: /^[A-Za-z0-9_]*$/ };
  };
}

const ZEN_FUNCTIONS: Completion[] = zenFunctionNames().map((name) => ({ label: name, type: 'function', apply: `${name}(` }));
const ZEN_METHODS: Completion[] = zenMethodNames().map((name) => ({ label: name, type: 'method', apply: `${name}(` }));

/** ZEN: functions where a word starts, date methods after a call's dot, and the variables given (input paths). */
function zenCompletionSource(variables: readonly string[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const method = context.matchBefore(/\)\.[A-Za-z]*/);
    if (method) return { from: method.from + 2, options: ZEN_METHODS, validFor: /^[A-Za-z]*$/ };
    const word = context.matchBefore(/[A-Za-z_$][\w$.]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    return { from: word.from, options: [...variables.map((v) => ({ label: v, type: 'variable' })), ...ZEN_FUNCTIONS], validFor: /^[\w$.]*$/ };
  };
}

function expressionLinter(language: Language) {
  return linter(
    (view): Diagnostic[] =>
      language.problems(view.state.doc.toString()).map((p) => ({ from: p.from, to: p.to, severity: p.severity, message: p.message, source: 'expression' })),
    { delay: 120 },
  );
}

const theme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: 'var(--dt-input-bg, #fff)', border: '1px solid var(--dt-border, #c5cbd3)', borderRadius: '4px' },
  '&.cm-focused': { outline: '2px solid var(--dt-focus, #2563eb)', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', padding: '4px 0' },
  '.cm-line': { padding: '0 6px' },
  '.cm-x-string': { color: '#0b7a3e' },
  '.cm-x-number': { color: '#1d4ed8' },
  '.cm-x-variable': { color: '#9333ea', fontWeight: '600' },
  '.cm-x-function': { color: '#b45309', fontWeight: '600' },
  '.cm-x-unknownFunction': { color: '#b91c1c', fontWeight: '600' },
  '.cm-x-keyword': { color: '#0e7490', fontWeight: '600' },
  '.cm-x-operator': { color: '#475569' },
  '.cm-x-punctuation': { color: '#64748b' },
  '.cm-tooltip-autocomplete .cm-completionDetail': { fontStyle: 'normal', color: '#64748b', marginLeft: '1em' },
  '.cm-tooltip-autocomplete ul li[aria-selected] .cm-completionDetail': { color: '#e0e7ff' },
});

/** Where the text has the first problem, as "line L, column C: message" for the status line. */
function describeProblem(text: string, language: Language): string | undefined {
  const [first] = language.problems(text);
  if (!first) return undefined;
  const { line, column } = lineAndColumn(text, first.from);
  return `Line ${line}, column ${column}: ${first.message}`;
}

export function ExpressionEditor(props: ExpressionEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const [text, setText] = useState(props.value);
  const [cursor, setCursor] = useState(props.value.length);
  const variables = useMemo(() => props.variables ?? [], [props.variables]);
  const language = languageOf(props);
  const zen = props.language === 'zen';

  useEffect(() => {
    const extensions: Extension[] = [
      editorNonce(),
      history(),
      engineHighlighting(language),
      expressionLinter(language),
      autocompletion({ override: [zen ? zenCompletionSource(variables) : completionSource(variables)], icons: false }),
      keymap.of([
        { key: 'Mod-Enter', run: () => (latest.current.onSubmit ? (latest.current.onSubmit(), true) : false) },
        ...completionKeymap,
        { key: 'Escape', run: () => (latest.current.onCancel ? (latest.current.onCancel(), true) : false) },
        ...historyKeymap,
        ...lintKeymap,
        ...defaultKeymap,
      ]),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': props.label, 'aria-multiline': 'true' }),
      EditorState.readOnly.of(!!props.readOnly),
      EditorView.editable.of(!props.readOnly),
      placeholderExt(zen ? (props.unary ? 'test of $, e.g. > 5 or "gold", "silver"' : 'ZEN expression, e.g. input.price * 2') : 'expression, e.g. SUM({a}, 1)'),
      theme,
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          const next = update.state.doc.toString();
          setText(next);
          // a value pushed in from outside is not an edit to report back
          if (!update.transactions.some((t) => t.annotation(External))) latest.current.onChange(next);
        }
        if (update.selectionSet || update.docChanged) setCursor(update.state.selection.main.head);
      }),
    ];
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: latest.current.value, extensions }) });
    view.current = v;
    if (latest.current.autoFocus) {
      v.focus();
      v.dispatch({ selection: { anchor: v.state.doc.length } });
    }
    return () => {
      v.destroy();
      view.current = null;
    };
    // the editor is built once per label / read-only state / variable list; value changes are dispatched below
  }, [props.label, props.readOnly, variables, language]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value }, annotations: External.of(true) });
    }
  }, [props.value]);

  const problem = describeProblem(text, language);
  const call = zen ? undefined : callAt(text, cursor);
  return (
    <div className={`dt-expr${props.compact ? ' dt-expr-compact' : ''}`}>
      <div ref={host} />
      <div className="dt-expr-status" role="status" aria-live="polite">
        {problem ? <span className="dt-expr-error">{problem}</span> : call ? <span className="dt-expr-signature">{call.signature}</span> : null}
      </div>
    </div>
  );
}
