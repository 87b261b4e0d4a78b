/**
 * Where an agent host listens, and the rules for reaching it: a `wss://` URL anywhere, a
 * `ws://` URL only on this machine (loopback), or a Unix socket (or Windows pipe) path. The
 * connection token goes where VS Code puts it, the `tkn` query parameter (its server checks
 * it at the WebSocket upgrade and answers 403 to a wrong one); `code agent host` prints its
 * URL that way, `ws://127.0.0.1:PORT?tkn=TOKEN`. The token is never part of what is shown.
 */
import { isLoopbackAddress } from './loopback-connection';

export type Endpoint =
  | { readonly kind: 'url'; readonly url: string; readonly secure: boolean; readonly display: string }
  | { readonly kind: 'socket'; readonly path: string; readonly display: string };

export class EndpointError extends Error {}

/** The query parameter VS Code's server and `code agent host` read the connection token from. */
export const TOKEN_PARAMETER = 'tkn';

/**
 * An address written as this machine's: a loopback IP, or a name of `localhost`. A name is
 * only a claim (DNS or /etc/hosts may answer anything): the connection keeps only loopback
 * answers and checks the address it reached before anything is sent (loopback-connection.ts).
 */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
}

function isSocketPath(target: string): boolean {
  return target.startsWith('/') || /^\\\\[.?]\\pipe\\/i.test(target);
}

/**
 * A URL or socket path as typed (or as `code agent host` printed it), its token taken out:
 * the endpoint, and the token when the URL carried one (the caller decides whether a token
 * there is welcome: the runner refuses it, it would show in the process list).
 */
export function parseEndpoint(target: string): { readonly endpoint: Endpoint; readonly tokenInUrl?: string } {
  const given = target.trim();
  if (given === '') throw new EndpointError('the agent host address is empty: give a ws:// or wss:// URL or a socket path');
  if (isSocketPath(given)) return { endpoint: { kind: 'socket', path: given, display: given } };
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new EndpointError(`"${given.slice(0, 200)}" is neither a ws:// or wss:// URL nor an absolute socket path`);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') throw new EndpointError(`the agent host speaks WebSocket: use ${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}${url.pathname === '/' ? '' : url.pathname}`);
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new EndpointError(`the agent host's URL must start with ws:// or wss://, not ${url.protocol}//`);
  if (url.username || url.password) throw new EndpointError('the agent host URL must not carry a user name or password: the connection token is given apart');
  const secure = url.protocol === 'wss:';
  // Anything a ws:// connection carries, the token first, can be read on the way: only this machine may be reached so.
  if (!secure && !isLoopback(url.hostname)) {
    throw new EndpointError(`ws:// is unencrypted and only allowed to this machine (localhost, 127.0.0.1, ::1) or a socket; for ${url.hostname} use wss://, or forward its port over SSH (ssh -L PORT:127.0.0.1:PORT host) and connect to ws://127.0.0.1:PORT`);
  }
  const token = url.searchParams.get(TOKEN_PARAMETER) ?? undefined;
  url.searchParams.delete(TOKEN_PARAMETER);
  url.hash = '';
  const display = `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  return { endpoint: { kind: 'url', url: url.href, secure, display }, ...(token !== undefined && token !== '' && { tokenInUrl: token }) };
}

/** The address the WebSocket opens, token included (the `ws` package's `ws+unix:` form for a socket). Never shown or logged. */
export function socketAddress(endpoint: Endpoint, token: string | undefined): string {
  const query = token === undefined || token === '' ? '' : `?${TOKEN_PARAMETER}=${encodeURIComponent(token)}`;
  if (endpoint.kind === 'socket') return `ws+unix:${endpoint.path}:/${query}`;
  const url = new URL(endpoint.url);
  if (token !== undefined && token !== '') url.searchParams.set(TOKEN_PARAMETER, token);
  return url.href;
}
