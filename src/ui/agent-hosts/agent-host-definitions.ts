/**
 * The agent hosts the person connected to, as the user setting `elicitationHost.agentHosts`
 * keeps them: a name and where the host listens (a `ws://`/`wss://` URL or a socket path,
 * src/ahp/endpoint.ts's rules), or `local` for the agent host desktop VS Code publishes on
 * this machine (local-agent-host.ts). The connection token is never here: SecretStorage holds
 * it, keyed by the address. Also how a host's state reads in the Agents view. No `vscode`:
 * the unit tests read it.
 */
import { EndpointError, type Endpoint, parseEndpoint } from '../../ahp/endpoint';
import type { AhpFailure } from '../../ahp/errors';
import { isRecord } from '../../base/is-record';

export const AGENT_HOSTS_SETTING = 'elicitationHost.agentHosts';
/** More would be a list nobody reads in a tree view. */
export const MAX_HOSTS = 20;
/** A name as the Agents view and every question's "who asks" show it. */
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_ .:@()-]{0,63}$/u;
/** VS Code's tokens are base64url or hex; anything printable but spaces is taken, within reason. */
const TOKEN = /^[\x21-\x7e]{1,1024}$/;

export type HostDefinition =
  | { readonly name: string; readonly kind: 'url'; readonly endpoint: Endpoint }
  | { readonly name: string; readonly kind: 'local' };

export function nameProblem(name: string): string | undefined {
  return NAME.test(name) ? undefined : 'A name of letters, digits, spaces and . : @ ( ) - _, at most 64.';
}

/** Why a token cannot be one (empty is allowed: a host started without a token). */
export function tokenProblem(token: string): string | undefined {
  return token === '' || TOKEN.test(token) ? undefined : 'A connection token has no spaces or control characters, and at most 1,024 characters.';
}

/** The setting's value, checked: each host, and what was wrong with the others (named). */
export function readAgentHosts(value: unknown): { readonly hosts: HostDefinition[]; readonly problems: string[] } {
  const hosts: HostDefinition[] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { hosts, problems };
  if (!isRecord(value)) return { hosts, problems: [`${AGENT_HOSTS_SETTING} must be an object of host names, each { "url": "wss://…" } or { "local": true }`] };
  for (const [name, entry] of Object.entries(value)) {
    const where = `${AGENT_HOSTS_SETTING}["${name.slice(0, 64)}"]`;
    if (hosts.length >= MAX_HOSTS) {
      problems.push(`${AGENT_HOSTS_SETTING}: only the first ${MAX_HOSTS} hosts are read`);
      break;
    }
    const badName = nameProblem(name);
    if (badName) {
      problems.push(`${where}: ${badName}`);
      continue;
    }
    if (!isRecord(entry)) {
      problems.push(`${where} must be { "url": "wss://…" } or { "local": true }`);
      continue;
    }
    if (entry.local === true && entry.url === undefined) {
      hosts.push({ name, kind: 'local' });
      continue;
    }
    if (typeof entry.url !== 'string' || entry.local !== undefined) {
      problems.push(`${where} must have either "url" (a ws:// or wss:// URL or a socket path) or "local": true`);
      continue;
    }
    try {
      const parsed = parseEndpoint(entry.url);
      // A token in the setting would be a secret in a file: refused, not used.
      if (parsed.tokenInUrl !== undefined) {
        problems.push(`${where}.url carries a connection token (?tkn=): remove it from the setting and give the token with "Connect to an Agent Host…", which keeps it in VS Code's secret storage`);
        continue;
      }
      hosts.push({ name, kind: 'url', endpoint: parsed.endpoint });
    } catch (error) {
      problems.push(`${where}.url: ${error instanceof EndpointError ? error.message : String(error)}`);
    }
  }
  return { hosts, problems };
}

/** Where SecretStorage keeps a host's token: by its address (without the token), so a renamed host keeps it. */
export function tokenKey(endpoint: Endpoint): string {
  return `elicitationHost.agentHostToken:${endpoint.kind === 'url' ? endpoint.url : `socket:${endpoint.path}`}`;
}

/** The setting's value for a host, as written to the user settings. */
export function settingEntry(host: HostDefinition): Record<string, unknown> {
  return host.kind === 'local' ? { local: true } : { url: host.endpoint.kind === 'url' ? host.endpoint.url : host.endpoint.path };
}

/** How the Agents view words a failure: a few words beside the host, the whole in its tooltip. */
export function describeFailure(failure: { readonly kind: AhpFailure; readonly message: string }, address: string): string {
  switch (failure.kind) {
    case 'token-refused':
      return 'the host refused the token';
    case 'no-common-version': {
      // errors.ts says both sides' versions: "the agent host at X speaks AHP a; Elicitation Host speaks AHP b: no version in common".
      const versions = /speaks AHP (.+); Elicitation Host speaks AHP (.+): no version in common$/.exec(failure.message);
      return versions ? `no common protocol version: the host speaks AHP ${versions[1]}, we speak AHP ${versions[2]}` : 'no common protocol version';
    }
    case 'unreachable':
      return 'unreachable';
    case 'timeout':
      return 'did not answer';
    case 'protocol':
      return 'broke the protocol';
    case 'closed':
      return 'the connection closed';
    case 'refused':
      return `refused a request: ${failure.message.replace(`the agent host at ${address} `, '')}`;
  }
}

/** What SecretStorage keeps for a host: its token, JSON-wrapped so that an empty one (a host without a token) is kept too. */
export function storedToken(token: string): string {
  return JSON.stringify({ token });
}

/** An AhpError's kind and message (the class is dist/ahp.js's, so read by shape); anything else thrown as unreachable. */
export function failureOf(error: unknown): { readonly kind: AhpFailure; readonly message: string } {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  const message = error instanceof Error || typeof (error as { message?: unknown } | undefined)?.message === 'string' ? String((error as { message: string }).message) : String(error);
  return { kind: typeof kind === 'string' ? (kind as AhpFailure) : 'unreachable', message };
}

/** The token as `storedToken` keeps it in SecretStorage (empty: a host without one); undefined when unreadable. */
export function readStoredToken(stored: string): string | undefined {
  try {
    const parsed = JSON.parse(stored) as { token?: unknown };
    return typeof parsed.token === 'string' ? parsed.token : undefined;
  } catch {
    return undefined;
  }
}

/** The same address: a URL (as parsed, the token out) or a socket path. */
export function sameEndpoint(a: Endpoint, b: Endpoint): boolean {
  return a.kind === 'url' ? b.kind === 'url' && a.url === b.url : b.kind === 'socket' && a.path === b.path;
}

/** Two hosts of the setting at the same place (the local one is always the same). */
export function sameAddress(a: HostDefinition, b: HostDefinition): boolean {
  if (a.kind === 'local' || b.kind === 'local') return a.kind === b.kind;
  return sameEndpoint(a.endpoint, b.endpoint);
}
