/**
 * The four string formats MCP elicitation allows, checked by ajv-formats' own code ("full"
 * mode), the same the host's final ajv check runs: its formats module has no
 * dependencies, so the page runs it too and the two cannot drift apart.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import type { TextFormat } from './model';

/** A format's check as a function: ajv-formats writes some as a RegExp, some as `{validate}`. */
function checkOf(format: TextFormat): (text: string) => boolean {
  const def = fullFormats[format] as unknown;
  const validate = typeof def === 'object' && def !== null && 'validate' in def ? (def as { validate: unknown }).validate : def;
  if (validate instanceof RegExp) return (text) => validate.test(text);
  if (typeof validate === 'function') return validate as (text: string) => boolean;
  throw new Error(`ajv-formats has no check for "${format}"`);
}

/** `unchecked`: only the form page without its checks bundle says this (webview/checks-deferred.ts). */
export type FormatOutcome = 'match' | 'no-match' | 'unchecked';

export const FORMAT_CHECKS: Readonly<Record<TextFormat, (text: string) => boolean>> = {
  email: checkOf('email'),
  uri: checkOf('uri'),
  date: checkOf('date'),
  'date-time': checkOf('date-time'),
};

export function testFormat(format: TextFormat, text: string): FormatOutcome {
  return FORMAT_CHECKS[format](text) ? 'match' : 'no-match';
}
