/**
 * What must never be shown: the values the person gave for a server's `${input:}`
 * variables (API keys in a URL or a header), in any text the connection layer produces
 * (errors, the state's detail, log lines, the trace, stderr), and the person's answers in
 * the trace (field names stay, values go).
 */
import type { ServerLog } from '../ports';
import { isRecord } from '../../base/is-record';

/** Shorter values are not hidden: replacing every "ab" in every message would hide the message, not a secret. */
const SHORTEST_SECRET = 4;
export const REDACTED = '[redacted]';

export class Redactor {
  private readonly forms: readonly string[];

  constructor(secrets: readonly string[] = []) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret.length < SHORTEST_SECRET) continue;
      // As typed, and as a URL carries it once substituted (percent-encoded by `new URL` or by hand).
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
      forms.add(encodeURI(secret));
    }
    // Longest first, so a secret that contains another is hidden whole.
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  get active(): boolean {
    return this.forms.length > 0;
  }

  text(text: string): string {
    let out = text;
    for (const form of this.forms) out = out.split(form).join(REDACTED);
    return out;
  }

  /** The error with its message redacted (the same object when there was nothing to hide). */
  error<E>(error: E): E {
    if (!this.active || !(error instanceof Error)) return error;
    const message = this.text(error.message);
    if (message !== error.message) error.message = message;
    return error;
  }

  /** The log, with every line it receives redacted. */
  log(log: ServerLog): ServerLog {
    if (!this.active) return log;
    return {
      info: (m) => log.info(this.text(m)),
      warn: (m) => log.warn(this.text(m)),
      error: (m) => log.error(this.text(m)),
      trace: (m) => log.trace(this.text(m)),
      stderr: (line) => log.stderr(this.text(line)),
      get traceEnabled() {
        return log.traceEnabled;
      },
    };
  }
}

/** An elicitation result's content with every value replaced. */
function hideContent(result: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(result.content) || typeof result.action !== 'string') return result;
  return { ...result, content: Object.fromEntries(Object.keys(result.content).map((k) => [k, REDACTED])) };
}

/**
 * A JSON-RPC message as the trace may show it: the answers it carries to the server (an
 * elicitation result, the `inputResponses` of an input-required retry, in either shape)
 * with their values replaced and their field names kept.
 */
export function withoutAnswers(message: unknown): unknown {
  if (!isRecord(message)) return message;
  if (isRecord(message.result) && message.method === undefined) return { ...message, result: hideContent(message.result) };
  const params = message.params;
  if (!isRecord(params) || params.inputResponses === undefined) return message;
  const responses = params.inputResponses;
  const hidden = Array.isArray(responses)
    ? responses.map((r: unknown) => (isRecord(r) && 'value' in r ? { ...r, value: REDACTED } : r))
    : isRecord(responses)
      ? Object.fromEntries(Object.entries(responses).map(([k, r]) => [k, isRecord(r) ? hideContent(r) : r]))
      : responses;
  return { ...message, params: { ...params, inputResponses: hidden } };
}
