/**
 * What every request to the gateway passes before anything reads its body: the Host it
 * was addressed to (DNS rebinding), the Origin it came from (a web page), and the
 * workspace's token. Pure over the request's headers, so it is tested without a socket.
 *
 * A missing or wrong token is answered 400, not 401/403: VS Code's MCP client starts
 * OAuth discovery on 401/403 and shows a "Dynamic Client Registration not supported"
 * dialog, and Claude Code ignores static headers for a server that advertises OAuth. We
 * publish no OAuth metadata and send no `WWW-Authenticate`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AgentGrant } from './agent-grants';

export type GuardVerdict =
  /** `grant`: the request carries the token of an agent we started (agent-grants.ts), not the workspace's. */
  | { readonly ok: true; readonly grant?: AgentGrant }
  | { readonly ok: false; readonly status: 400 | 403; readonly message: string };

export interface GuardOptions {
  /** The port we listen on: a Host naming another port was meant for someone else. */
  readonly port: number;
  /** The token, read for every request (it may be rotated while we run). */
  readonly token: () => string;
  /**
   * Origins allowed to call us besides our own (exact `scheme://host[:port]`). None by
   * default: the agents we serve are not web pages, and their HTTP clients send no Origin.
   */
  readonly allowedOrigins?: readonly string[];
  /** The agent a session's own token was issued for, if `token` is one (agent-grants.ts). */
  readonly grantFor?: (token: string) => AgentGrant | undefined;
}

/** The names a loopback listener answers to; anything else in Host is DNS rebinding. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

type Headers = Readonly<Record<string, string | string[] | undefined>>;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

/** `host[:port]` from a Host header, or undefined when it is not one. */
function parseHost(value: string): { host: string; port: number | undefined } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return undefined;
  return { host: match[1].toLowerCase(), port: match[2] === undefined ? undefined : Number(match[2]) };
}

/**
 * Whether an Origin is the gateway's own: `http://` a loopback name with our port. No page
 * is served there, so only a client of ours (one that names where it sends, as MCP's
 * conformance suite does) can send it; a rebound name (`http://evil.example:PORT`) or
 * another local port's page never matches.
 */
function isOwnOrigin(value: string, port: number): boolean {
  const match = /^http:\/\/(\[[0-9a-fA-F:.]+\]|[^:/?#@[\]]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return false;
  const originPort = match[2] === undefined ? 80 : Number(match[2]);
  return LOOPBACK_HOSTS.has(match[1].toLowerCase()) && originPort === port;
}

function sameSecret(given: string, expected: string): boolean {
  // Digests first: equal lengths for timingSafeEqual, and no early exit on a length mismatch.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

/** The token in `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(headers: Headers): string | undefined {
  const value = single(headers.authorization);
  const match = value === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value);
  return match ? match[1] : undefined;
}

/**
 * Checks Host, then Origin, then the token. The order matters only for what the caller
 * learns: a foreign page gets 403 whatever token it guessed.
 */
export function checkRequest(headers: Headers, options: GuardOptions): GuardVerdict {
  const hostHeader = single(headers.host);
  const host = hostHeader === undefined ? undefined : parseHost(hostHeader);
  if (!host || !LOOPBACK_HOSTS.has(host.host) || (host.port !== undefined && host.port !== options.port)) {
    return { ok: false, status: 403, message: 'This gateway answers only requests addressed to 127.0.0.1 or localhost on its own port.' };
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const value = single(origin);
    if (value === undefined || !(isOwnOrigin(value, options.port) || (options.allowedOrigins ?? []).includes(value))) {
      return { ok: false, status: 403, message: 'Requests from web pages are not accepted.' };
    }
  }
  const token = bearerToken(headers);
  if (token === undefined) {
    return { ok: false, status: 400, message: 'Missing token: send Authorization: Bearer <token> (the ELICITATION_HOST_MCP_TOKEN of this workspace).' };
  }
  if (!sameSecret(token, options.token())) {
    const grant = options.grantFor?.(token);
    if (grant) return { ok: true, grant };
    return { ok: false, status: 400, message: 'Wrong token: this is not the ELICITATION_HOST_MCP_TOKEN of this workspace (it may have been rotated).' };
  }
  return { ok: true };
}
