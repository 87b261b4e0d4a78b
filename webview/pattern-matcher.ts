/**
 * The pattern matcher for the form page, bundled on its own (dist/webview/pattern.js): the
 * host's own module, so page and host reach the same verdicts. A page that loads it before
 * main.js checks patterns as the person types (see pattern-deferred.ts).
 */
import { testPattern } from '../src/elicitation/pattern';
import { MATCHER_GLOBAL } from './pattern-deferred';

(globalThis as Record<string, unknown>)[MATCHER_GLOBAL] = { testPattern };
