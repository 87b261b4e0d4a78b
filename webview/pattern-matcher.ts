/**
 * The pattern matcher for the form page, bundled on its own (dist/webview/pattern.js): the
 * host's own module, so page and host reach the same verdicts. A page that loads it before
 * main.js checks patterns as the person types (see pattern-deferred.ts).
 */
import { testPattern } from '../src/elicitation/pattern';
import { MATCHER_GLOBAL, MATCHER_READY_EVENT } from './pattern-deferred';

(globalThis as Record<string, unknown>)[MATCHER_GLOBAL] = { testPattern };
// In the page (not in the unit tests, where there is no window): what was typed before it came is judged now.
(globalThis as { dispatchEvent?: (event: Event) => boolean }).dispatchEvent?.(new Event(MATCHER_READY_EVENT));
