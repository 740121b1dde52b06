// A recursive-descent parser of FEEL (DMN 1.5, 10.3.1). FEEL names may hold spaces and some operator characters
// (`Monthly Salary`, `Applicant's age`), so names are read against the names known at that point: the caller's,
// the built-in functions', and those the text itself introduces (context keys, parameters, iteration variables).
// An unknown run of plain words separated by spaces is one name too, so `first name` needs no declaration.
import { FeelSyntaxError, type Comparator, type FeelNode, type Iterator } from './ast.ts';

export interface ParseOptions {
  /** Names in scope (variables, decisions, functions of the model). */
  readonly names?: Iterable<string>;
}

const KEYWORDS = new Set([
  'and', 'or', 'in', 'instance', 'of', 'between', 'if', 'then', 'else', 'for', 'return', 'some', 'every', 'satisfies',
  'true', 'false', 'null', 'function', 'external',
]);
/** Words that end a name made of plain words (`a in b`, `x instance of y`, `if a then b`). */
const STOP_WORDS = new Set([...KEYWORDS, 'not']);

const NAME_START = /[\p{L}_?]/u;
const NAME_PART = /[\p{L}\p{N}\p{Mn}_?'\u00B7\u203F\u2040]/u;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Known names by first character, longest first, each with a matcher allowing any whitespace between words. A
 * table layers over its parent (the built-in names are one shared table), so a scope adds only its own names.
 */
class NameTable {
  static readonly #shared = new WeakMap<readonly string[], NameTable>();
  readonly #byFirst = new Map<string, { name: string; pattern: RegExp }[]>();
  readonly #parent: NameTable | undefined;

  /** One table per list of names, built once (the built-in function names). */
  static shared(names: readonly string[]): NameTable {
    let table = NameTable.#shared.get(names);
    if (!table) NameTable.#shared.set(names, (table = new NameTable(names)));
    return table;
  }

  constructor(names: Iterable<string>, parent?: NameTable) {
    this.#parent = parent;
    for (const name of names) this.add(name);
  }
  add(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) return;
    const first = trimmed[0]!;
    const list = this.#byFirst.get(first) ?? [];
    if (list.some((entry) => entry.name === trimmed)) return;
    const source = trimmed.split(/\s+/).map(escapeRegExp).join('\\s+');
    list.push({ name: trimmed, pattern: new RegExp(source, 'y') });
    list.sort((a, b) => b.name.length - a.name.length);
    this.#byFirst.set(first, list);
  }
  /** The longest known name at `pos` ending on a name boundary, here or in a parent, with its end offset. */
  match(text: string, pos: number): { name: string; end: number } | null {
    const inherited = this.#parent?.match(text, pos) ?? null;
    const list = this.#byFirst.get(text[pos]!);
    if (!list) return inherited;
    for (const { name, pattern } of list) {
      pattern.lastIndex = pos;
      if (!pattern.test(text)) continue;
      const end = pattern.lastIndex;
      const last = name[name.length - 1]!;
      if (NAME_PART.test(last) && end < text.length && NAME_PART.test(text[end]!)) continue;
      return inherited && inherited.end > end ? inherited : { name, end };
    }
    return inherited;
  }
}

const COMPARATORS: Comparator[] = ['<=', '>=', '!=', '=', '<', '>'];

/** Nesting deeper than this is refused with a syntax error rather than overflowing the stack. */
const MAX_DEPTH = 150;

export class Parser {
  readonly #text: string;
  #pos = 0;
  #names: NameTable;
  #noFilter = false;
  #depth = 0;

  /** `names`: the caller's names in scope; `shared`: a list of names kept as one table across parses (the built-ins). */
  constructor(text: string, names: Iterable<string>, shared?: readonly string[]) {
    this.#text = text;
    this.#names = new NameTable(names, shared ? NameTable.shared(shared) : undefined);
  }

  parseExpression(): FeelNode {
    const node = this.#expression();
    this.#end();
    return node;
  }

  /** Unary tests: `-`, `not(tests)`, or comma-separated positive tests (each a full expression or `< e`). */
  parseUnaryTests(): FeelNode[] {
    this.#ws();
    const at = this.#pos;
    if (this.#peekChar('-')) {
      const save = this.#pos;
      this.#pos++;
      this.#ws();
      if (this.#pos >= this.#text.length) return [{ t: 'anyValue', at }];
      this.#pos = save;
    }
    if (this.#word() === 'not') {
      const save = this.#pos;
      this.#pos += 3;
      this.#ws();
      if (this.#peekChar('(')) {
        this.#pos++;
        const tests = this.#testList(true);
        this.#expect(')');
        this.#ws();
        if (this.#pos >= this.#text.length) return [{ t: 'not', at, tests }];
      }
      this.#pos = save;
    }
    const tests = this.#testList(true);
    this.#end();
    return tests;
  }

  // --- tokens -------------------------------------------------------------------------------------------------

  #ws(): void {
    const text = this.#text;
    for (;;) {
      while (this.#pos < text.length && /\s/.test(text[this.#pos]!)) this.#pos++;
      if (text.startsWith('//', this.#pos)) {
        const nl = text.indexOf('\n', this.#pos);
        this.#pos = nl < 0 ? text.length : nl + 1;
      } else if (text.startsWith('/*', this.#pos)) {
        const close = text.indexOf('*/', this.#pos + 2);
        if (close < 0) throw new FeelSyntaxError('unterminated comment', this.#pos);
        this.#pos = close + 2;
      } else return;
    }
  }

  #peekChar(s: string): boolean {
    this.#ws();
    return this.#text.startsWith(s, this.#pos);
  }

  #accept(s: string): boolean {
    if (!this.#peekChar(s)) return false;
    this.#pos += s.length;
    return true;
  }

  #expect(s: string): void {
    if (!this.#accept(s)) throw new FeelSyntaxError(`expected "${s}" but found ${this.#describe()}`, this.#pos);
  }

  #describe(): string {
    if (this.#pos >= this.#text.length) return 'the end of the text';
    return `"${this.#text.slice(this.#pos, this.#pos + 12)}"`;
  }

  #end(): void {
    this.#ws();
    if (this.#pos < this.#text.length) throw new FeelSyntaxError(`unexpected ${this.#describe()}`, this.#pos);
  }

  /** The plain word at the cursor (letters, digits, `_`, `?`), or ''. */
  #word(at = this.#pos): string {
    const text = this.#text;
    if (at >= text.length || !NAME_START.test(text[at]!)) return '';
    let end = at + 1;
    while (end < text.length && NAME_PART.test(text[end]!) && text[end] !== "'") end++;
    return text.slice(at, end);
  }

  #acceptKeyword(word: string): boolean {
    this.#ws();
    if (this.#word() !== word) return false;
    this.#pos += word.length;
    return true;
  }

  #expectKeyword(word: string): void {
    if (!this.#acceptKeyword(word)) throw new FeelSyntaxError(`expected "${word}" but found ${this.#describe()}`, this.#pos);
  }

  /**
   * A name at the cursor: the longer of the longest known name and the run of plain words (`sum total` is one
   * undeclared name, not the built-in `sum`); on a tie the known name.
   */
  #name(): string | null {
    this.#ws();
    const known = this.#names.match(this.#text, this.#pos);
    const start = this.#pos;
    const words = this.#words();
    if (known && (words === null || known.end >= this.#pos)) {
      this.#pos = known.end;
      return known.name;
    }
    if (words === null) this.#pos = start;
    return words;
  }


  /** A run of plain words that are not keywords (`first name`), or null. */
  #words(): string | null {
    const text = this.#text;
    const first = this.#word();
    if (!first || KEYWORDS.has(first)) return null;
    let end = this.#pos + first.length;
    while (end < text.length && NAME_PART.test(text[end]!)) end++;
    let name = text.slice(this.#pos, end);
    for (;;) {
      let next = end;
      while (next < text.length && (text[next] === ' ' || text[next] === '\t')) next++;
      if (next === end) break;
      const word = this.#word(next);
      if (!word || STOP_WORDS.has(word)) break;
      let wordEnd = next + word.length;
      while (wordEnd < text.length && NAME_PART.test(text[wordEnd]!)) wordEnd++;
      // a word followed by `(` after a name is a call only when the name is complete: keep joining words
      name += ` ${text.slice(next, wordEnd)}`;
      end = wordEnd;
    }
    this.#pos = end;
    return name;
  }

  #withNames<T>(names: string[], body: () => T): T {
    const saved = this.#names;
    if (names.length) this.#names = new NameTable(names, saved);
    try {
      return body();
    } finally {
      this.#names = saved;
    }
  }

  // --- expressions --------------------------------------------------------------------------------------------

  #expression(): FeelNode {
    this.#ws();
    if (++this.#depth > MAX_DEPTH) throw new FeelSyntaxError(`the expression nests deeper than ${MAX_DEPTH} levels`, this.#pos);
    try {
      return this.#textual();
    } finally {
      this.#depth--;
    }
  }

  #textual(): FeelNode {
    const at = this.#pos;
    const word = this.#word();
    if (word === 'if') {
      this.#pos += 2;
      const condition = this.#expression();
      this.#expectKeyword('then');
      const then = this.#expression();
      this.#expectKeyword('else');
      return { t: 'if', at, condition, then, else: this.#expression() };
    }
    if (word === 'for') {
      this.#pos += 3;
      const iterators = this.#iterators();
      this.#expectKeyword('return');
      const body = this.#withNames([...iterators.map((i) => i.name), 'partial'], () => this.#expression());
      return { t: 'for', at, iterators, body };
    }
    if (word === 'some' || word === 'every') {
      const save = this.#pos;
      this.#pos += word.length;
      this.#ws();
      if (NAME_START.test(this.#text[this.#pos] ?? '')) {
        const iterators = this.#iterators();
        this.#expectKeyword('satisfies');
        const condition = this.#withNames(
          iterators.map((i) => i.name),
          () => this.#expression(),
        );
        return { t: word, at, iterators, condition };
      }
      this.#pos = save;
    }
    return this.#disjunction();
  }

  #iterators(): Iterator[] {
    const iterators: Iterator[] = [];
    do {
      this.#ws();
      const nameAt = this.#pos;
      const word = this.#word();
      if (!word || KEYWORDS.has(word)) throw new FeelSyntaxError('expected an iteration variable name', nameAt);
      this.#pos += word.length;
      this.#expectKeyword('in');
      const domain = this.#withNames(
        iterators.map((i) => i.name),
        () => this.#expression(),
      );
      const to = this.#accept('..') ? this.#withNames(iterators.map((i) => i.name), () => this.#expression()) : null;
      iterators.push({ name: word, domain, to });
    } while (this.#accept(','));
    return iterators;
  }

  #disjunction(): FeelNode {
    let left = this.#conjunction();
    for (;;) {
      const at = this.#pos;
      if (!this.#acceptKeyword('or')) return left;
      left = { t: 'or', at, left, right: this.#conjunction() };
    }
  }

  #conjunction(): FeelNode {
    let left = this.#comparison();
    for (;;) {
      const at = this.#pos;
      if (!this.#acceptKeyword('and')) return left;
      left = { t: 'and', at, left, right: this.#comparison() };
    }
  }

  #comparator(): Comparator | null {
    this.#ws();
    for (const op of COMPARATORS) {
      if (this.#text.startsWith(op, this.#pos)) {
        this.#pos += op.length;
        return op;
      }
    }
    return null;
  }

  #comparison(): FeelNode {
    let left = this.#additive();
    for (;;) {
      this.#ws();
      const at = this.#pos;
      const op = this.#comparator();
      if (op) {
        left = { t: 'compare', at, op, left, right: this.#additive() };
        continue;
      }
      if (this.#acceptKeyword('between')) {
        const low = this.#additive();
        this.#expectKeyword('and');
        left = { t: 'between', at, value: left, low, high: this.#additive() };
        continue;
      }
      if (this.#acceptKeyword('in')) {
        left = { t: 'in', at, value: left, tests: this.#inTests() };
        continue;
      }
      if (this.#acceptKeyword('instance')) {
        this.#expectKeyword('of');
        left = { t: 'instanceOf', at, value: left, type: this.#typeText() };
        continue;
      }
      return left;
    }
  }

  /** After `in`: `(test, test, ...)` or one positive unary test. */
  #inTests(): FeelNode[] {
    this.#ws();
    if (this.#peekChar('(')) {
      const save = this.#pos;
      this.#pos++;
      const first = this.#positiveTest(false);
      if (this.#peekChar(',')) {
        const tests = [first];
        while (this.#accept(',')) tests.push(this.#positiveTest(false));
        this.#expect(')');
        return tests;
      }
      if (this.#accept(')') && first.t === 'unaryCompare') return [first];
      this.#pos = save;
    }
    return [this.#positiveTest(false)];
  }

  /** A type name after `instance of`: `number`, `date and time`, `list<number>`, `context<a: string>`, ... */
  #typeText(): string {
    this.#ws();
    const text = this.#text;
    const start = this.#pos;
    const compound = /^(?:list|range|context|function)\s*</.exec(text.slice(start));
    if (compound) {
      let depth = 0;
      let i = start;
      for (; i < text.length; i++) {
        if (text[i] === '<') depth++;
        else if (text[i] === '>' && text[i - 1] !== '-') {
          depth--;
          if (depth === 0) break;
        }
      }
      if (depth !== 0) throw new FeelSyntaxError('unterminated type', start);
      this.#pos = i + 1;
      if (text.slice(start).startsWith('function')) {
        const arrow = /^\s*->\s*/.exec(text.slice(this.#pos));
        if (arrow) {
          this.#pos += arrow[0].length;
          this.#typeText();
        }
      }
      return text.slice(start, this.#pos);
    }
    for (const multi of ['date and time', 'days and time duration', 'years and months duration']) {
      const match = new RegExp(multi.replace(/ /g, '\\s+'), 'y');
      match.lastIndex = start;
      if (match.test(text)) {
        this.#pos = match.lastIndex;
        return multi;
      }
    }
    const word = this.#word();
    if (!word) throw new FeelSyntaxError('expected a type name after "instance of"', start);
    this.#pos += word.length;
    // qualified names such as `feel:number` or an item definition `tns.Person`
    while (text[this.#pos] === ':' || text[this.#pos] === '.') {
      const next = this.#word(this.#pos + 1);
      if (!next) break;
      this.#pos += 1 + next.length;
    }
    return text.slice(start, this.#pos);
  }

  /** A positive unary test: `< e`, `= e`, an interval, or an expression (compared with, or containing, `?`). */
  #positiveTest(fullExpression: boolean): FeelNode {
    this.#ws();
    const at = this.#pos;
    const op = this.#comparator();
    if (op) return { t: 'unaryCompare', at, op, value: this.#additive() };
    return fullExpression ? this.#expression() : this.#additive();
  }

  #testList(fullExpression: boolean): FeelNode[] {
    const tests = [this.#positiveTest(fullExpression)];
    while (this.#accept(',')) tests.push(this.#positiveTest(fullExpression));
    return tests;
  }

  #additive(): FeelNode {
    let left = this.#multiplicative();
    for (;;) {
      this.#ws();
      const at = this.#pos;
      const c = this.#text[this.#pos];
      if ((c === '+' || c === '-') && this.#text[this.#pos + 1] !== '>') {
        this.#pos++;
        left = { t: 'arith', at, op: c, left, right: this.#multiplicative() };
      } else return left;
    }
  }

  #multiplicative(): FeelNode {
    let left = this.#power();
    for (;;) {
      this.#ws();
      const at = this.#pos;
      const c = this.#text[this.#pos];
      if (c === '*' && this.#text[this.#pos + 1] !== '*') {
        this.#pos++;
        left = { t: 'arith', at, op: '*', left, right: this.#power() };
      } else if (c === '/' && this.#text[this.#pos + 1] !== '/' && this.#text[this.#pos + 1] !== '*') {
        this.#pos++;
        left = { t: 'arith', at, op: '/', left, right: this.#power() };
      } else return left;
    }
  }

  #power(): FeelNode {
    let left = this.#unary();
    for (;;) {
      this.#ws();
      const at = this.#pos;
      if (!this.#text.startsWith('**', this.#pos)) return left;
      this.#pos += 2;
      left = { t: 'arith', at, op: '**', left, right: this.#unary() };
    }
  }

  #unary(): FeelNode {
    this.#ws();
    const at = this.#pos;
    if (this.#text[this.#pos] === '-') {
      this.#pos++;
      if (++this.#depth > MAX_DEPTH) throw new FeelSyntaxError(`the expression nests deeper than ${MAX_DEPTH} levels`, at);
      try {
        return { t: 'negate', at, operand: this.#unary() };
      } finally {
        this.#depth--;
      }
    }
    if (this.#text[this.#pos] === '+' && /[\d.]/.test(this.#text[this.#pos + 1] ?? '')) this.#pos++;
    return this.#postfix();
  }

  #postfix(): FeelNode {
    let node = this.#primary();
    for (;;) {
      this.#ws();
      const at = this.#pos;
      const c = this.#text[this.#pos];
      if (c === '.' && this.#text[this.#pos + 1] !== '.') {
        this.#pos++;
        this.#ws();
        const name = this.#name();
        if (name === null) throw new FeelSyntaxError('expected a name after "."', this.#pos);
        node = { t: 'path', at, value: node, name };
      } else if (c === '[' && !this.#noFilter) {
        this.#pos++;
        const condition = this.#withNames(['item'], () => this.#expression());
        this.#expect(']');
        node = { t: 'filter', at, list: node, condition };
      } else if (c === '(') {
        this.#pos++;
        node = this.#call(node, at);
      } else return node;
    }
  }

  #call(fn: FeelNode, at: number): FeelNode {
    if (this.#accept(')')) return { t: 'call', at, fn, args: [], named: null };
    // named arguments: `name: value`
    const save = this.#pos;
    this.#ws();
    const first = this.#name();
    if (first !== null && this.#peekChar(':')) {
      this.#pos = save;
      const named: [string, FeelNode][] = [];
      do {
        this.#ws();
        const nameAt = this.#pos;
        const name = this.#name();
        if (name === null) throw new FeelSyntaxError('expected a parameter name', nameAt);
        this.#expect(':');
        named.push([name, this.#expression()]);
      } while (this.#accept(','));
      this.#expect(')');
      return { t: 'call', at, fn, args: [], named };
    }
    this.#pos = save;
    const args = [this.#expression()];
    while (this.#accept(',')) args.push(this.#expression());
    this.#expect(')');
    return { t: 'call', at, fn, args, named: null };
  }

  #primary(): FeelNode {
    this.#ws();
    const text = this.#text;
    const at = this.#pos;
    const c = text[at];
    if (c === undefined) throw new FeelSyntaxError('expected an expression but found the end of the text', at);
    if (/\d/.test(c) || (c === '.' && /\d/.test(text[at + 1] ?? ''))) return this.#number();
    if (c === '"') return { t: 'string', at, value: this.#string() };
    if (c === '@') {
      this.#pos++;
      if (text[this.#pos] !== '"') throw new FeelSyntaxError('expected a string after "@"', this.#pos);
      return { t: 'temporal', at, text: this.#string() };
    }
    if (c === '(') {
      this.#pos++;
      const noFilter = this.#noFilter;
      this.#noFilter = false;
      let inner: FeelNode;
      try {
        inner = this.#expression();
      } finally {
        this.#noFilter = noFilter;
      }
      if (this.#accept('..')) return this.#rangeRest(false, inner, at);
      this.#expect(')');
      return inner;
    }
    if (c === ']') {
      this.#pos++;
      const start = this.#expression();
      this.#expect('..');
      return this.#rangeRest(false, start, at);
    }
    if (c === '[') {
      this.#pos++;
      if (this.#accept(']')) return { t: 'list', at, items: [] };
      const first = this.#expression();
      if (this.#accept('..')) return this.#rangeRest(true, first, at);
      const items = [first];
      while (this.#accept(',')) items.push(this.#expression());
      this.#expect(']');
      return { t: 'list', at, items };
    }
    if (c === '{') return this.#context();
    if (COMPARATORS.some((op) => text.startsWith(op, at))) {
      // a simple positive unary test used as a value: `< 10` is the range up to 10
      const op = this.#comparator()!;
      return { t: 'unaryCompare', at, op, value: this.#additive() };
    }
    const word = this.#word();
    if (word === 'true' || word === 'false') {
      this.#pos += word.length;
      return { t: 'boolean', at, value: word === 'true' };
    }
    if (word === 'null') {
      this.#pos += 4;
      return { t: 'null', at };
    }
    if (word === 'function') {
      this.#pos += 8;
      return this.#functionDefinition(at);
    }
    if (word === 'if' || word === 'for' || word === 'some' || word === 'every') return this.#expression();
    const name = this.#name();
    if (name !== null) return { t: 'name', at, name };
    throw new FeelSyntaxError(`unexpected ${this.#describe()}`, at);
  }

  #rangeRest(startIncluded: boolean, start: FeelNode, at: number): FeelNode {
    // `[1..10[`: the closing `[` is not a filter on 10
    this.#noFilter = true;
    let end: FeelNode;
    try {
      end = this.#expression();
    } finally {
      this.#noFilter = false;
    }
    this.#ws();
    const c = this.#text[this.#pos];
    if (c !== ']' && c !== ')' && c !== '[') throw new FeelSyntaxError(`expected "]", ")" or "[" to end the range but found ${this.#describe()}`, this.#pos);
    this.#pos++;
    return { t: 'range', at, startIncluded, start, end, endIncluded: c === ']' };
  }

  #number(): FeelNode {
    const match = /\d*(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    match.lastIndex = this.#pos;
    const m = match.exec(this.#text)!;
    const at = this.#pos;
    this.#pos += m[0].length;
    // `1..3` is a range: do not read `1.` as a number
    return { t: 'number', at, text: m[0] };
  }

  #string(): string {
    const text = this.#text;
    const start = this.#pos;
    this.#pos++;
    let out = '';
    while (this.#pos < text.length) {
      const c = text[this.#pos]!;
      if (c === '"') {
        this.#pos++;
        return out;
      }
      if (c === '\\') {
        const e = text[this.#pos + 1];
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\', b: '\b', f: '\f' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.#pos += 2;
          continue;
        }
        const unicode = /^u([0-9a-fA-F]{4})|^U([0-9a-fA-F]{6})/.exec(text.slice(this.#pos + 1));
        if (unicode) {
          out += String.fromCodePoint(parseInt(unicode[1] ?? unicode[2]!, 16));
          this.#pos += 1 + unicode[0].length;
          continue;
        }
        // any other escape stays as written: regular expressions such as "\d" or "(a)\1" need it
        out += c;
        this.#pos++;
        continue;
      }
      out += c;
      this.#pos++;
    }
    throw new FeelSyntaxError('unterminated string', start);
  }

  #context(): FeelNode {
    const at = this.#pos;
    this.#pos++;
    const entries: [string, FeelNode][] = [];
    if (this.#accept('}')) return { t: 'context', at, entries };
    const keys: string[] = [];
    do {
      this.#ws();
      const keyAt = this.#pos;
      let key: string;
      if (this.#text[this.#pos] === '"') key = this.#string();
      else {
        const colon = this.#text.indexOf(':', this.#pos);
        const raw = colon < 0 ? '' : this.#text.slice(this.#pos, colon);
        if (!raw.trim() || /[{}(),"[\]]/.test(raw)) throw new FeelSyntaxError('expected a context key followed by ":"', keyAt);
        key = raw.trim().replace(/\s+/g, ' ');
        this.#pos = colon;
      }
      if (keys.includes(key)) throw new FeelSyntaxError(`the context key "${key}" appears twice`, keyAt);
      this.#expect(':');
      const value = this.#withNames(keys, () => this.#expression());
      entries.push([key, value]);
      keys.push(key);
    } while (this.#accept(','));
    this.#expect('}');
    return { t: 'context', at, entries };
  }

  #functionDefinition(at: number): FeelNode {
    this.#expect('(');
    const params: string[] = [];
    const types: (string | null)[] = [];
    if (!this.#accept(')')) {
      do {
        this.#ws();
        const nameAt = this.#pos;
        const name = this.#name();
        if (name === null) throw new FeelSyntaxError('expected a parameter name', nameAt);
        types.push(this.#accept(':') ? this.#typeText() : null);
        params.push(name);
      } while (this.#accept(','));
      this.#expect(')');
    }
    const external = this.#acceptKeyword('external');
    const body = this.#withNames(params, () => this.#expression());
    return { t: 'function', at, params, types, body, external };
  }
}

/** Parses a FEEL expression; throws FeelSyntaxError naming the offset. */
export function parseExpression(text: string, names: Iterable<string> = [], shared?: readonly string[]): FeelNode {
  return new Parser(text, names, shared).parseExpression();
}

/** Parses unary tests (a decision table input entry); throws FeelSyntaxError naming the offset. */
export function parseUnaryTests(text: string, names: Iterable<string> = [], shared?: readonly string[]): FeelNode[] {
  return new Parser(text, names, shared).parseUnaryTests();
}
