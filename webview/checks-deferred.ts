/**
 * The form page's `pattern` and `formats` modules (the build puts this in place of
 * src/elicitation/pattern.ts and formats.ts): re2js alone weighs about as much as the page's
 * whole budget, and ajv-formats was a third of the page's own script, which the page's first
 * paint waits for. When the checks bundle (dist/webview/checks.js, built from checks.ts) has
 * been loaded into the page, the page runs exactly the host's code; until then a pattern or a
 * format gets no verdict on the page and the host's check on submit decides, with the same
 * message the page would have shown. The page loads the bundle after its own load event
 * (`loadChecks`).
 */
import type { FormatOutcome } from '../src/elicitation/formats';
import type { TextFormat } from '../src/elicitation/model';
import type { PatternOutcome } from '../src/elicitation/pattern';

export type { FormatOutcome, PatternOutcome };

/** Where checks.ts leaves the host's checks. */
export const CHECKS_GLOBAL = 'elicitationHostChecks';

/** The event checks.ts dispatches on the page when it arrives: fields typed in before are checked again. */
export const CHECKS_READY_EVENT = 'elicitation-host-checks-ready';

interface Checks {
  testPattern(source: string, text: string): PatternOutcome;
  testFormat(format: TextFormat, text: string): FormatOutcome;
}

function loaded(): Checks | undefined {
  return (globalThis as Record<string, unknown>)[CHECKS_GLOBAL] as Checks | undefined;
}

export function testPattern(source: string, text: string): PatternOutcome {
  return loaded()?.testPattern(source, text) ?? 'unchecked';
}

export function testFormat(format: TextFormat, text: string): FormatOutcome {
  return loaded()?.testFormat(format, text) ?? 'unchecked';
}

/** Adds the checks bundle's script (from `src`, under the page's nonce), unless it is there already. */
export function loadChecks(src: string | undefined, nonce: string): void {
  if (!src || loaded()) return;
  const script = document.createElement('script');
  script.nonce = nonce;
  script.src = src;
  document.head.append(script);
}
