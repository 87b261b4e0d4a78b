/**
 * JSON Schema `pattern` checked in linear time: pattern-compile.ts says what the pattern
 * means in RE2's dialect and re2js runs it, so no pattern a server sends can hold the
 * thread the way a backtracking engine can (`^(a+)+$`). The extension host (validation,
 * the final ajv check) and the form page run this same module.
 *
 *   checkPattern  when a schema is read: limits, syntax, what RE2 cannot say (no RE2 compile)
 *   testPattern   when an answer is checked: compiled once per pattern, kept in an LruCache
 */
import type { RE2JS } from 're2js';
import { LIMITS } from './limits';
import { planPattern, PatternSyntaxError } from './pattern-compile';
import { LruCache } from './schema-cache';

/** `unchecked`: only the form page without its matcher says this (webview/checks-deferred.ts). */
export type PatternOutcome = 'match' | 'no-match' | 'too-complex' | 'unchecked';

export type PatternCheck = { readonly ok: true; readonly size: number } | { readonly ok: false; readonly message: string };

interface CompiledPart {
  readonly re: RE2JS;
  readonly mustMatch: boolean;
}

interface Compiled {
  readonly alternatives: ReadonlyArray<readonly CompiledPart[]>;
  /** RE2's program size, all parts together: the work of one check is this times the text. */
  readonly size: number;
  readonly wordBoundary: boolean;
}

const SURROGATE = /[\uD800-\uDFFF]/;

let engine: typeof RE2JS | undefined;
/** CommonJS's, which every bundle of this module has (the form page's too: the bundler resolves it). */
declare const require: (id: string) => unknown;

/**
 * re2js, loaded on the first pattern: it is as large as the rest of the extension bundle, and
 * activation should not parse it (the build makes './re2-engine' its own file, dist/re2.js).
 */
function re2(): typeof RE2JS {
  // A plain require: synchronous, and the build maps it to dist/re2.js.
  engine ??= (require('./re2-engine') as typeof import('./re2-engine')).RE2JS;
  return engine;
}

/** Patterns kept compiled: a session's servers ask far fewer distinct ones. */
const COMPILED_KEPT = 64;
const compiled = new LruCache<Compiled | 'broken'>(COMPILED_KEPT);
const knownProperties = new LruCache<boolean>(256);

/** Whether re2js knows `\p{name}` (the translation already mapped ECMA-262's spellings). */
function knowsProperty(name: string): boolean {
  let known = knownProperties.get(name);
  if (known === undefined) {
    try {
      re2().compile(`\\p{${name}}`);
      known = true;
    } catch {
      known = false;
    }
    knownProperties.set(name, known);
  }
  return known;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Whether `source` is a pattern we check, and its program size; a message naming the
 * limit or the construct otherwise. Cheap: it compiles nothing with RE2.
 */
export function checkPattern(source: string): PatternCheck {
  if (source.length > LIMITS.patternChars) {
    return { ok: false, message: `is ${plural(source.length, 'character')} long, over the limit of ${plural(LIMITS.patternChars, 'character')} for a pattern` };
  }
  try {
    new RegExp(source, 'u');
  } catch (e) {
    return { ok: false, message: `is not a valid pattern: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}` };
  }
  try {
    const plan = planPattern(source);
    for (const part of plan.alternatives.flat()) {
      for (const [, name] of part.re2.matchAll(/\\[pP]\{(\w+)\}/g)) {
        if (!knowsProperty(name)) throw new PatternSyntaxError(`the Unicode property ${name}, which RE2 does not know`);
      }
    }
    if (plan.size > LIMITS.patternProgram) {
      return { ok: false, message: `compiles to about ${plural(plan.size, 'instruction')}, over the limit of ${plural(LIMITS.patternProgram, 'instruction')} for a pattern` };
    }
    return { ok: true, size: plan.size };
  } catch (e) {
    if (!(e instanceof PatternSyntaxError)) throw e;
    return { ok: false, message: `cannot be checked safely: it uses ${e.message}` };
  }
}

function compile(source: string): Compiled | 'broken' {
  let entry = compiled.get(source);
  if (entry === undefined) {
    try {
      // What a schema may not carry is not run either, whoever asks (ajv, a page).
      if (!checkPattern(source).ok) throw new PatternSyntaxError(source);
      const plan = planPattern(source);
      const alternatives = plan.alternatives.map((parts) =>
        parts.map((part) => ({ re: re2().compile(part.re2, part.lookbehind ? re2().LOOKBEHINDS : 0), mustMatch: part.mustMatch })),
      );
      entry = { alternatives, size: alternatives.flat().reduce((sum, p) => sum + p.re.programSize(), 0), wordBoundary: plan.wordBoundary };
    } catch {
      // Not reached for a pattern checkPattern accepted; for any other, no verdict rather than a wrong one.
      entry = 'broken';
    }
    compiled.set(source, entry);
  }
  return entry;
}

/** Whether `text` matches somewhere (JSON Schema patterns are not anchored). */
export function testPattern(source: string, text: string): PatternOutcome {
  const entry = compile(source);
  if (entry === 'broken' || text.length * entry.size > LIMITS.patternWork) return 'too-complex';
  if (entry.wordBoundary && SURROGATE.test(text)) return 'too-complex';
  const matched = entry.alternatives.some((parts) => parts.every((part) => part.re.test(text) === part.mustMatch));
  return matched ? 'match' : 'no-match';
}

/**
 * The regular expression engine ajv gets (`code.regExp`), so its final check reaches the
 * verdict the person was shown. "Too complex" fails: nothing unchecked is sent.
 */
export function patternRegExp(source: string, flags: string): { test(text: string): boolean; toString(): string } {
  if (flags !== 'u') throw new Error(`ajv asked for a pattern with flags "${flags}"; JSON Schema patterns are read with "u"`);
  return { test: (text) => testPattern(source, text) === 'match', toString: () => `/${source}/u` };
}
patternRegExp.code = 'patternRegExp';

export { PatternSyntaxError };

/** How many patterns are kept compiled (bounded by an LruCache; the tests hold it to that). */
export function compiledPatternCount(): number {
  return compiled.size;
}
