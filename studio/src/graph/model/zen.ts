// What the expression editor shows for GoRules ZEN text (decision graphs): tokens for highlighting from the
// engine's ZEN lexer and the ZEN parser's syntax error, so the editor accepts what the solver parses. Cells of
// a table column with a field are unary tests (`> 5`, `"gold", "silver"`); everything else is a standard
// expression. Empty text is valid everywhere (an empty cell holds for any input; an empty statement is the else).
// Completion offers ZEN's functions and, after a dot, its date methods.
import { tokenize } from '../../../../src/engine/zen/lexer.ts';
import { parseStandard, parseUnary } from '../../../../src/engine/zen/parser.ts';
import { ZenSyntaxError } from '../../../../src/engine/zen/errors.ts';
import { DATE_METHODS, FUNCTIONS } from '../../../../src/engine/zen/functions.ts';
import { CLOSURE_FUNCTIONS } from '../../../../src/engine/zen/ast.ts';
import type { ExpressionProblem, Token } from '../../designer/model/expression.ts';

const KEYWORDS = new Set(['true', 'false', 'null', '$', '$root', '#', '$nodes']);

/** The text's tokens for highlighting; text the lexer refuses (an open string) is left plain. */
export function zenTokens(text: string): Token[] {
  let tokens: ReturnType<typeof tokenize>;
  try {
    tokens = tokenize(text);
  } catch {
    return [];
  }
  const out: Token[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    // A token ends where the next one starts, less the whitespace between them.
    let to = tokens[i + 1]!.at;
    while (to > token.at && /\s/.test(text[to - 1]!)) to--;
    const next = tokens[i + 1]!;
    const type: Token['type'] = token.kind === 'number' ? 'number'
      : token.kind === 'string' || token.kind === 'template' ? 'string'
      : token.kind === 'operator' ? (/^[a-z]/.test(token.value) ? 'keyword' : 'operator')
      : token.kind === 'bracket' ? 'punctuation'
      : KEYWORDS.has(token.value) ? 'keyword'
      : next.kind === 'bracket' && next.value === '(' ? 'function'
      : 'variable';
    if (to > token.at) out.push({ from: token.at, to, type });
  }
  return out;
}

/** The parser's complaint about the text, with where it is; none when it parses. */
export function zenProblems(text: string, unary: boolean): ExpressionProblem[] {
  if (text.trim() === '') return [];
  try {
    if (unary) parseUnary(text);
    else parseStandard(text);
    return [];
  } catch (error) {
    if (error instanceof ZenSyntaxError) {
      const from = Math.max(0, Math.min(error.at, text.length));
      // The engine's message ends by quoting the whole text, which the editor shows anyway.
      const message = error.message.replace(/ of '[\s\S]*'$/, '');
      return [{ from: Math.min(from, Math.max(0, text.length - 1)), to: Math.min(text.length, from + 1), message, severity: 'error' }];
    }
    return [{ from: 0, to: text.length, message: error instanceof Error ? error.message : String(error), severity: 'error' }];
  }
}

/** ZEN's functions (closures among them), for completion: what the engine's ZEN implementation provides. */
export function zenFunctionNames(): string[] {
  return [...new Set([...Object.keys(FUNCTIONS), ...CLOSURE_FUNCTIONS])].sort();
}

/** ZEN's date methods (`d(x).add(1, 'day')`), offered after a dot. */
export function zenMethodNames(): string[] {
  return Object.keys(DATE_METHODS).sort();
}
