/**
 * The form page's `pattern` module (the build puts it in place of src/elicitation/pattern.ts):
 * re2js alone weighs about as much as the page's whole budget, so the page carries no
 * matcher. When the matcher bundle (dist/webview/pattern.js, built from pattern-matcher.ts)
 * has been loaded into the page, the page runs exactly the host's code; until then a
 * pattern gets no verdict on the page and the host's check on submit decides, with the
 * same message the page would have shown.
 */
import type { PatternOutcome } from '../src/elicitation/pattern';

export type { PatternOutcome };

/** Where pattern-matcher.ts leaves the matcher. */
export const MATCHER_GLOBAL = 'elicitationHostPatterns';

/** The event pattern-matcher.ts dispatches on the page when it arrives: fields typed in before are checked again. */
export const MATCHER_READY_EVENT = 'elicitation-host-patterns-ready';

interface Matcher {
  testPattern(source: string, text: string): PatternOutcome;
}

export function testPattern(source: string, text: string): PatternOutcome {
  const matcher = (globalThis as Record<string, unknown>)[MATCHER_GLOBAL] as Matcher | undefined;
  return matcher ? matcher.testPattern(source, text) : 'unchecked';
}
