/**
 * Why a connection to an agent host failed, in the few kinds the UI and the runner tell
 * apart: the host refused the token (HTTP 403 at the upgrade), it could not be reached, the
 * two sides have no protocol version in common (both named), the address is not allowed
 * (ws:// to another machine), the host broke the protocol or refused a request, or a request
 * timed out. Messages
 * name the host by its address without the token.
 */
export type AhpFailure = 'token-refused' | 'unreachable' | 'no-common-version' | 'protocol' | 'timeout' | 'closed' | 'refused';

export class AhpError extends Error {
  constructor(
    readonly kind: AhpFailure,
    message: string,
    /** For `refused`: the host's JSON-RPC error code and data. */
    readonly rpc?: { readonly code: number; readonly data?: unknown },
  ) {
    super(message);
  }
}

export function tokenRefused(host: string, status: number): AhpError {
  return new AhpError('token-refused', `the agent host at ${host} refused the connection token (HTTP ${status}): give the token it was started with (VS Code's --connection-token, or the one \`code agent host\` printed)`);
}

export function unreachable(host: string, why: string): AhpError {
  return new AhpError('unreachable', `cannot reach the agent host at ${host}: ${why}`);
}

export function noCommonVersion(host: string, theirs: readonly string[], ours: readonly string[]): AhpError {
  const spoken = theirs.length > 0 ? theirs.join(', ') : 'a version it did not name';
  return new AhpError('no-common-version', `the agent host at ${host} speaks AHP ${spoken}; Elicitation Host speaks AHP ${ours.join(', ')}: no version in common`);
}

export function protocolViolation(host: string, what: string): AhpError {
  return new AhpError('protocol', `the agent host at ${host} broke the protocol: ${what}`);
}

/** The host answered a request of ours with an error (JSON-RPC `error`). */
export function refusedRequest(code: number, message: string, data?: unknown): AhpError {
  return new AhpError('refused', message, { code, ...(data !== undefined && { data }) });
}
