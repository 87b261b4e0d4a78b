/**
 * The room `src/ahp/wire/`: the Agent Host Protocol (AHP) as far as the inbox uses it, each
 * part its types and the checkers of what a host sends: this file (the checking every
 * checker shares, and `WireError`), `versions` (what we speak, and how a host picks),
 * `names` (channels, error codes, limits, the two namings), `envelope` (an action as the
 * host pushes it, and who wrote it), `connection` (the handshake, subscribing, reconnecting),
 * `root` (sessions and agents), `input-request` (a request's questions and answers),
 * `tool-call` (a tool call waiting for a confirmation), `channel-state` (a conversation's and
 * a session's state), `actions` (the actions the inbox acts on) and `writes` (the actions
 * we send). Two sources of truth: VS Code 1.139.1's agent host (AHP 0.9.0, read from its
 * compiled source) and the published specification (microsoft/agent-host-protocol, 1.x).
 * Both keep a chat's input requests on the chat channel as `chat/input*`; the
 * specification's earlier generation (and its page on input requests) kept them in the
 * session's state as `session/input*`. We read both, and answer in the names a request came
 * in.
 *
 * Everything a host sends is untrusted: each checker builds a fresh value of the fields we
 * use (unknown fields are left behind), bounds sizes (the frame, ids, texts, questions,
 * options), and throws a WireError naming the field and the limit. Pure.
 */
import { isRecord } from '../../base/is-record';
import { LIMITS } from '../../elicitation/limits';
import { overLimit } from '../../elicitation/schema';
import { AHP_LIMITS } from './names';

/** A message that is not what the protocol says, naming where. */
export class WireError extends Error {
  constructor(readonly path: string, problem: string) {
    super(`${path} ${problem}`);
  }
}

export function fail(path: string, problem: string): never {
  throw new WireError(path, problem);
}

export function record(v: unknown, path: string): Record<string, unknown> {
  return isRecord(v) ? v : fail(path, 'must be an object');
}

export function text(v: unknown, path: string, limit: number = LIMITS.messageChars): string {
  if (typeof v !== 'string') fail(path, 'must be a string');
  if (v.length > limit) fail(path, overLimit(v.length, limit, 'character', 'for this field'));
  return v;
}

export function optional<T>(v: unknown, read: (v: unknown) => T): T | undefined {
  return v === undefined || v === null ? undefined : read(v);
}

export function id(v: unknown, path: string): string {
  const s = text(v, path, AHP_LIMITS.idChars);
  return s === '' ? fail(path, 'must not be empty') : s;
}

export function count(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : fail(path, 'must be a whole number, 0 or more');
}

export function finite(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fail(path, 'must be a finite number');
}

export function list<T>(v: unknown, path: string, limit: number, unit: string, each: (item: unknown, path: string) => T): T[] {
  if (!Array.isArray(v)) fail(path, 'must be a list');
  if (v.length > limit) fail(path, overLimit(v.length, limit, unit, 'for this list'));
  return v.map((item, i) => each(item, `${path}[${i}]`));
}

/** StringOrMarkdown: a string, or `{ markdown }` (read as the text it is). */
export function words(v: unknown, path: string, limit: number = LIMITS.messageChars): string {
  if (isRecord(v) && 'markdown' in v) return text(v.markdown, `${path}.markdown`, limit);
  return text(v, path, limit);
}
