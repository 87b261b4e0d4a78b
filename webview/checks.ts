/**
 * The host's pattern matcher and format checks for the form page, bundled on their own
 * (dist/webview/checks.js): the host's own modules, so page and host reach the same
 * verdicts. The page fetches it once it has loaded (see checks-deferred.ts).
 */
import { testFormat } from '../src/elicitation/formats';
import { testPattern } from '../src/elicitation/pattern';
import { CHECKS_GLOBAL, CHECKS_READY_EVENT } from './checks-deferred';

(globalThis as Record<string, unknown>)[CHECKS_GLOBAL] = { testPattern, testFormat };
// In the page (not in the unit tests, where there is no window): what was typed before it came is judged now.
(globalThis as { dispatchEvent?: (event: Event) => boolean }).dispatchEvent?.(new Event(CHECKS_READY_EVENT));
