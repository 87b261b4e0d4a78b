/**
 * Everything the runner prints goes through here. Server text reaches a terminal as text:
 * lines for people lose control characters (escape sequences) and bidi and zero-width
 * characters; JSON lines keep every value exactly, with those characters escaped (`\u001b`,
 * `\u202e`), so they parse to the same values and are still safe to show in a terminal.
 */
import { terminalSafe } from '../elicitation/plain-text';

export interface Output {
  readonly json: boolean;
  line(human: string, record: Record<string, unknown>): void;
  /** `details` go into the JSON record only (the human message must say it all). */
  error(message: string, details?: Record<string, unknown>): void;
}

/** JSON text with every character a terminal would act on or hide written as a `\u` escape. */
export function jsonLine(record: Record<string, unknown>): string {
  // JSON.stringify escapes C0 controls only; C1 controls and bidi characters come out raw.
  // Every character terminalSafe removes is a control (Cc) or format (Cf) character, so only
  // those few are looked at: long non-ASCII results stay fast.
  return JSON.stringify(record).replace(/[\p{Cc}\p{Cf}]/gu, (c) => (terminalSafe(c) === c ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

export function createOutput(
  json: boolean,
  write: (text: string) => unknown = (text) => process.stdout.write(text),
  writeError: (text: string) => unknown = (text) => process.stderr.write(text),
): Output {
  return {
    json,
    line: (human, record) => write(json ? `${jsonLine(record)}\n` : `${terminalSafe(human)}\n`),
    error: (message, details = {}) => (json ? write(`${jsonLine({ type: 'error', message, ...details })}\n`) : writeError(`error: ${terminalSafe(message)}\n`)),
  };
}

/** A line of the server's stderr, relayed as text. */
export function relayStderr(line: string): void {
  process.stderr.write(`[server] ${terminalSafe(line)}\n`);
}
