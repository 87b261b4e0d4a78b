/**
 * The one reader of an `elicitation/create`'s params, whichever edge brought them: an MCP
 * server's request (mcp/connection/elicit-bridge.ts), an ACP agent's (acp/agent-questions.ts),
 * the gateway's `/ask` body (gateway/outside-question.ts). It checks the request's own shape,
 * naming the field at fault as the edge names it, and throws the edge's own error; the
 * schema itself is the broker's to read. The edges differ only where their protocols do:
 * ACP requires `mode`, and a link's `elicitationId`. Pure.
 */
import { isRecord } from '../base/is-record';
import type { FormParams, UrlParams } from './broker';

export interface ParamsEdge {
  /** The edge's error for params at fault (a -32602 of its protocol, the gateway's 400). */
  readonly error: (message: string) => Error;
  /** How the edge names the params' fields: `params.` (MCP), `question.` (the gateway's body), nothing (ACP). */
  readonly prefix: string;
  /** ACP's rules: `mode` is required, and a link carries its `elicitationId`. */
  readonly strict?: boolean;
}

/** The params as the broker takes them; throws the edge's error naming the field at fault. */
export function readElicitParams(raw: unknown, edge: ParamsEdge): FormParams | UrlParams {
  const { prefix, strict = false } = edge;
  const bad = (message: string): never => {
    throw edge.error(message);
  };
  if (!isRecord(raw)) return bad(`${prefix === '' ? 'params' : prefix.slice(0, -1)} must be an object`);
  if (typeof raw.message !== 'string') return bad(`${prefix}message must be a string`);
  const { message } = raw;
  const absent = raw.mode === undefined || raw.mode === null;
  const mode = absent && !strict ? 'form' : raw.mode;
  if (mode === 'url') {
    if (typeof raw.url !== 'string') return bad(`${prefix}url must be a string in url mode`);
    const id = raw.elicitationId;
    if (strict ? typeof id !== 'string' : id !== undefined && typeof id !== 'string') return bad(`${prefix}elicitationId must be a string${strict ? ' in url mode' : ''}`);
    return { mode: 'url', message, url: raw.url, ...(typeof id === 'string' && { elicitationId: id }) };
  }
  if (mode !== 'form') return bad(`${prefix}mode must be "form" or "url" (the modes this client offers), not ${JSON.stringify(mode) ?? 'absent'}`);
  // The schema is the broker's to read (it names the field at fault); here only that there is one.
  if (!isRecord(raw.requestedSchema)) return bad(`${prefix}requestedSchema must be an object in form mode`);
  return { mode: 'form', message, requestedSchema: raw.requestedSchema };
}
