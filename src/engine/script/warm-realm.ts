// The warm realm: one context per isolate, hardened once and reused by every run of a script that makes no host
// calls (function nodes), so such a run costs two synchronous calls into the isolate instead of a fresh context
// (about 300 µs of V8's context creation) and five thread hops.
//
// Why a reused realm cannot carry one solve's data into the next (docs/decisions/perf-function-nodes.md):
//  - every object reachable from the globals when the realm is hardened (the intrinsics, including the anonymous
//    ones: iterator, generator and typed-array prototypes) is frozen, and every global binding made read-only, so
//    no run can write where another run reads; the properties that ordinary code overrides on its own objects
//    (`toString`, `constructor`, ...) become accessors that define the property on the object written to, so the
//    freeze does not break `Foo.prototype.toString = ...` (SES's "override mistake");
//  - what a run adds to the global object (its `input`, `log`, sloppy-mode globals, big.js and Day.js) is deleted
//    after it; a run that leaves something the reset cannot undo (a non-configurable global, a changed prototype
//    of the global, a non-extensible global) marks the realm dirty and it is thrown away;
//  - channels a freeze cannot close are removed before anything runs: the RegExp legacy statics (`RegExp.$1` is
//    the last match of any run), indirect `eval` (a global `let` is a binding, not a property), and everything that
//    settles after the run (WebAssembly's promises, FinalizationRegistry, Atomics.waitAsync), so a run is over
//    when its synchronous call returns; a run whose result is still pending then is not finished here at all
//    (the caller runs it again in a fresh context) and the realm is thrown away.
import type ivm from 'isolated-vm';

/**
 * Hardens the context it runs in and returns the realm's entry points. `bootstrap` is BOOTSTRAP_SOURCE's function,
 * evaluated in the same context before hardening (it reads the intrinsics it captures from a pristine realm).
 */
export const WARM_REALM_SOURCE = String.raw`(function warmRealm(bootstrap) {
  'use strict';
  const g = globalThis;
  const freeze = Object.freeze;
  const getPrototypeOf = Object.getPrototypeOf;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const defineProperty = Object.defineProperty;
  const isExtensible = Object.isExtensible;
  const hasOwn = Object.hasOwn;
  const ownKeys = Reflect.ownKeys;
  const deleteProperty = Reflect.deleteProperty;
  const then = Promise.prototype.then;
  const call = Function.prototype.call;
  const callThen = call.bind(then);
  const ErrorType = Error;
  const SetType = Set;
  const setHas = call.bind(Set.prototype.has);
  const setAdd = call.bind(Set.prototype.add);

  // Channels a freeze cannot close.
  const legacyStatics = ['input', '$_', 'lastMatch', '$&', 'lastParen', '$+', 'leftContext', '$\x60', 'rightContext', "$'",
    '$1', '$2', '$3', '$4', '$5', '$6', '$7', '$8', '$9'];
  for (let i = 0; i < legacyStatics.length; i++) {
    if (!deleteProperty(RegExp, legacyStatics[i])) throw new ErrorType('cannot remove RegExp.' + legacyStatics[i]);
  }
  const removed = ['eval', 'WebAssembly', 'FinalizationRegistry', 'console'];
  for (let i = 0; i < removed.length; i++) {
    if (!deleteProperty(g, removed[i])) throw new ErrorType('cannot remove ' + removed[i]);
  }
  if (typeof Atomics === 'object' && !deleteProperty(Atomics, 'waitAsync')) throw new ErrorType('cannot remove Atomics.waitAsync');

  // Properties that code assigns on its own objects although a frozen prototype has them (the override mistake).
  // 'constructor' only where user objects inherit it in practice: V8's fast paths for arrays, promises, regular
  // expressions and typed arrays check their prototypes' constructor.
  const overridable = ['toString', 'toLocaleString', 'valueOf', 'toJSON', 'name', 'message',
    'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'apply', 'bind', 'call'];
  const constructorOverridable = [Object.prototype, Function.prototype, Error.prototype, EvalError.prototype,
    RangeError.prototype, ReferenceError.prototype, SyntaxError.prototype, TypeError.prototype, URIError.prototype];
  function enableOverride(object, key) {
    const desc = getOwnPropertyDescriptor(object, key);
    if (!desc || !hasOwn(desc, 'value') || !desc.writable || !desc.configurable) return;
    const value = desc.value;
    // Methods, not function expressions: they have no prototype object for the walk to tame in turn.
    const accessor = {
      get() { return value; },
      set(newValue) {
        if (this === object) throw new TypeError('Cannot assign to read only property \'' + String(key) + '\' of a built-in');
        if (this === null || (typeof this !== 'object' && typeof this !== 'function')) return;
        defineProperty(this, key, { value: newValue, writable: true, enumerable: true, configurable: true });
      },
    };
    defineProperty(object, key, { get: accessor.get, set: accessor.set, enumerable: desc.enumerable, configurable: false });
  }

  const anonymous = [
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function () {}),
    getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(new Map()[Symbol.iterator]()),
    getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(''[Symbol.iterator]()),
    getPrototypeOf(/a/[Symbol.matchAll]('a')),
    getPrototypeOf(Uint8Array),
  ];
  if (typeof Iterator === 'function') {
    anonymous.push(getPrototypeOf([].values().map((x) => x)), getPrototypeOf(Iterator.from({ next() { return { done: true }; } })));
  }
  if (typeof Intl === 'object' && typeof Intl.Segmenter === 'function') {
    const segments = new Intl.Segmenter().segment('a');
    anonymous.push(getPrototypeOf(segments), getPrototypeOf(segments[Symbol.iterator]()));
  }

  // Freeze everything reachable from the globals and the anonymous intrinsics (values, accessors, prototypes).
  const seen = new SetType([g]);
  const stack = anonymous.slice();
  stack.push(getPrototypeOf(g), bootstrap);
  const globalKeys = ownKeys(g);
  for (let i = 0; i < globalKeys.length; i++) {
    const desc = getOwnPropertyDescriptor(g, globalKeys[i]);
    stack.push(desc.value, desc.get, desc.set);
    // Read-only bindings: a run may shadow nothing and replace nothing another run reads.
    if (desc.configurable) {
      if (hasOwn(desc, 'value')) defineProperty(g, globalKeys[i], { value: desc.value, writable: false, enumerable: desc.enumerable, configurable: false });
      else defineProperty(g, globalKeys[i], { get: desc.get, set: desc.set, enumerable: desc.enumerable, configurable: false });
    } else if (desc.writable) {
      defineProperty(g, globalKeys[i], { writable: false });
    }
  }
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || setHas(seen, value)) continue;
    setAdd(seen, value);
    const keys = ownKeys(value);
    if (typeof value === 'object' || value === Function.prototype) {
      for (let i = 0; i < overridable.length; i++) enableOverride(value, overridable[i]);
    }
    if (constructorOverridable.indexOf(value) >= 0) enableOverride(value, 'constructor');
    for (let i = 0; i < keys.length; i++) {
      const desc = getOwnPropertyDescriptor(value, keys[i]);
      if (desc) stack.push(desc.value, desc.get, desc.set);
    }
    stack.push(getPrototypeOf(value));
    freeze(value);
  }

  // The run's globals (input, output, log, ...) are accessors defined once: defining and deleting them per run
  // would invalidate V8's global property cells, and with them the optimised code of every script that reads them.
  let current = null;
  const RUN_GLOBALS = ['input', 'output', 'ruleVariables', 'log', 'console', 'DR', 'SolverStrategy'];
  for (let i = 0; i < RUN_GLOBALS.length; i++) {
    const name = RUN_GLOBALS[i];
    const accessor = {
      get() { return current === null ? undefined : current[name]; },
      set(value) { if (current !== null) current[name] = value; },
    };
    freeze(accessor.get);
    freeze(accessor.set);
    defineProperty(g, name, { get: accessor.get, set: accessor.set, enumerable: false, configurable: false });
  }
  function install(globals) {
    current = globals;
  }

  const baseKeys = new SetType(ownKeys(g));
  const baseCount = baseKeys.size;
  const baseProto = getPrototypeOf(g);
  const noHost = freeze({
    apply: function () { return Promise.reject(new ErrorType('DR.solve is not available here: a function node solves other decisions through decision nodes')); },
  });

  let settled = false;
  let outcome = null;
  let running = false;

  /** Undoes what a run added to the global object; false when it cannot (the realm must then be thrown away). */
  function reset() {
    if (!isExtensible(g) || getPrototypeOf(g) !== baseProto) return false;
    const keys = ownKeys(g);
    if (keys.length === baseCount) return true;
    for (let i = 0; i < keys.length; i++) {
      if (!setHas(baseKeys, keys[i]) && !deleteProperty(g, keys[i])) return false;
    }
    return ownKeys(g).length === baseCount;
  }

  // Script functions by cache key, kept here so a run passes a key, not a reference (about 1 µs less a call).
  const scripts = new Map();
  const mapGet = call.bind(Map.prototype.get);
  const mapSet = call.bind(Map.prototype.set);
  const mapDelete = call.bind(Map.prototype.delete);

  return freeze({
    /** Keeps a script's function (the compiled, wrapped source run in this realm), frozen: every run shares it. */
    adopt: function (key, script) {
      mapSet(scripts, key, freeze(script));
    },
    forget: function (key) {
      mapDelete(scripts, key);
    },
    /** Starts one run: its own globals and log, the script awaited by the bootstrap's runner. */
    start: function (key, inputJson, variablesJson, limitsJson) {
      running = true;
      settled = false;
      outcome = null;
      const runner = bootstrap(inputJson, variablesJson, noHost, noHost, false, limitsJson, install);
      callThen(runner(mapGet(scripts, key)), function (text) { settled = true; outcome = text; }, function () { settled = true; });
    },
    /**
     * Ends the run. One string (strings cross cheaper than arrays): 'c' when the realm was reset and is clean for
     * the next run, else 'd'; then 's' and the runner's text when the run settled, or 'p' (pending: it awaits
     * something that settles only later, or its runner failed).
     */
    finish: function () {
      const text = settled ? outcome : null;
      const clean = running && settled && reset();
      running = false;
      outcome = null;
      current = null;
      return (clean ? 'c' : 'd') + (typeof text === 'string' ? 's' + text : 'p');
    },
  });
})`;

/** The warm realm of one isolate: its context and the entry points WARM_REALM_SOURCE returned. */
export interface WarmRealm {
  readonly context: ivm.Context;
  readonly adopt: ivm.Reference;
  readonly forget: ivm.Reference;
  readonly start: ivm.Reference;
  readonly finish: ivm.Reference;
  /** Cache keys of the script functions adopted into this realm, least recently used first. */
  readonly scripts: Set<string>;
}

export function createWarmRealm(isolate: ivm.Isolate, bootstrap: ivm.Script): WarmRealm {
  const context = isolate.createContextSync();
  const references: ivm.Reference[] = [];
  try {
    const boot = bootstrap.runSync(context, { reference: true }) as ivm.Reference;
    references.push(boot);
    const realmScript = isolate.compileScriptSync(WARM_REALM_SOURCE, { filename: 'verdict-warm-realm.js' });
    const make = realmScript.runSync(context, { reference: true }) as ivm.Reference;
    realmScript.release();
    references.push(make);
    const api = make.applySync(undefined, [boot.derefInto()], { result: { reference: true } }) as ivm.Reference;
    references.push(api);
    const entry = (name: string) => {
      const reference = api.getSync(name, { reference: true }) as ivm.Reference;
      references.push(reference);
      return reference;
    };
    return { context, adopt: entry('adopt'), forget: entry('forget'), start: entry('start'), finish: entry('finish'), scripts: new Set() };
  } catch (error) {
    for (const reference of references.slice(3)) reference.release();
    context.release();
    throw error;
  } finally {
    // The entry points keep what they close over alive; only they are kept.
    for (const reference of references.slice(0, 3)) reference.release();
  }
}

/** Makes sure the realm holds the script's function, evaluated and frozen on first use (at most `max` kept). */
export function adoptScript(realm: WarmRealm, script: ivm.Script, cacheKey: string, max: number): void {
  if (realm.scripts.delete(cacheKey)) {
    realm.scripts.add(cacheKey);
    return;
  }
  const fn = script.runSync(realm.context, { reference: true }) as ivm.Reference;
  try {
    realm.adopt.applySync(undefined, [cacheKey, fn.derefInto()]);
  } finally {
    fn.release();
  }
  realm.scripts.add(cacheKey);
  if (realm.scripts.size > max) {
    const oldest = realm.scripts.values().next().value as string;
    realm.scripts.delete(oldest);
    realm.forget.applySync(undefined, [oldest]);
  }
}

export interface WarmRun {
  /** The bootstrap runner's text, or null when the run did not settle within its call (run it in a fresh context). */
  text: string | null;
  /** Whether the realm was reset and may serve the next run. */
  clean: boolean;
}

/** One run: two synchronous calls into the isolate (the run, then its result and the reset), both under `timeoutMs`. */
export function runWarm(realm: WarmRealm, cacheKey: string, inputJson: string, variablesJson: string, limitsJson: string, timeoutMs: number): WarmRun {
  realm.start.applySync(undefined, [cacheKey, inputJson, variablesJson, limitsJson], { timeout: timeoutMs });
  const answer = realm.finish.applySync(undefined, [], { timeout: timeoutMs }) as string;
  return { text: answer[1] === 's' ? answer.slice(2) : null, clean: answer[0] === 'c' };
}

export function releaseWarmRealm(realm: WarmRealm): void {
  realm.scripts.clear();
  for (const reference of [realm.adopt, realm.forget, realm.start, realm.finish]) reference.release();
  realm.context.release();
}
