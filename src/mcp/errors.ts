/**
 * Failures of the connection layer: the errors we raise (a call's failure for the person,
 * a JSON-RPC error for the server), and how an SDK or network failure is classified. By
 * codes (`SdkErrorCode`, the system error `code` along the cause chain, HTTP status,
 * JSON-RPC code), never by reading messages. No SDK value is imported: the SDK loads
 * lazily, and its error codes are stable strings the types below pin to its enum.
 */
import type { SdkErrorCode } from '@modelcontextprotocol/client';
import { AnswerCheckError, TooManyRequestsError } from '../elicitation/broker';
import { describeProblems, InvalidSchemaError } from '../elicitation/schema';
import { errorMessage } from '../base/error-message';

/** A user-facing failure of a call (timeout, cancel, too many rounds...), message ready to show. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

/** What the server receives as a JSON-RPC error: the SDK sends the `code`, `message` and `data` of what a handler throws. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export const RpcCode = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** `URLElicitationRequiredError`: the call needs the person to visit links first. */
  urlElicitationRequired: -32042,
  /** A request needed a capability the client did not declare (MCP 2026-07-28). */
  missingClientCapability: -32021,
} as const;

const CONNECTION_CLOSED = 'CONNECTION_CLOSED' satisfies `${SdkErrorCode.ConnectionClosed}`;

/** The error under this one: its `cause`, or where the SDK keeps it (`data.cause`). */
function causeOf(error: unknown): unknown {
  const e = error as { cause?: unknown; data?: { cause?: unknown } } | undefined;
  return e?.cause ?? e?.data?.cause;
}

/** The first thing `read` finds along an error's cause chain (the SDK wraps its HTTP errors in negotiation errors). */
function inCauseChain<T>(error: unknown, read: (e: unknown) => T | undefined): T | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = causeOf(e)) {
    seen.add(e);
    const found = read(e);
    if (found !== undefined) return found;
  }
  return undefined;
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | undefined)?.code;
}

/** The connection closed under a request (the SDK's `ConnectionClosed`). */
export function isConnectionClosed(error: unknown): boolean {
  return codeOf(error) === CONNECTION_CLOSED;
}

export function httpStatusOf(error: unknown): number | undefined {
  return inCauseChain(error, (e) => {
    const status = (e as { status?: unknown }).status ?? (e as { data?: { status?: unknown } }).data?.status;
    return typeof status === 'number' ? status : undefined;
  });
}

/**
 * The network failure under an error, by its code: a system error (`ECONNREFUSED`,
 * `ECONNRESET`...) or undici's (`UND_ERR_SOCKET`...), as fetch reports a server that is gone.
 */
export function networkCodeOf(error: unknown): string | undefined {
  return inCauseChain(error, (e) => {
    const code = codeOf(e);
    return typeof code === 'string' && /^(?:E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code) ? code : undefined;
  });
}

/** Why an HTTP server could not be used, in words: its status, or the network error's code. */
export function describeHttpFailure(url: URL, error: unknown): string {
  const status = httpStatusOf(error);
  if (status !== undefined) return `${url.href} answered HTTP ${status}: ${errorMessage(error)}`;
  const code = networkCodeOf(error);
  return code ? `${url.href} cannot be reached (${code})` : `${url.href} cannot be used: ${errorMessage(error)}`;
}

/** A Streamable HTTP failure that means "this server speaks the older HTTP+SSE transport": a 4xx other than authorization. */
export function answersLikeLegacySse(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** The links of a `-32042` error (a URL elicitation is required), or undefined for any other failure. */
export function requiredLinksOf(error: unknown): { readonly message: string; readonly links: readonly unknown[] } | undefined {
  if (codeOf(error) !== RpcCode.urlElicitationRequired) return undefined;
  const links = (error as { data?: { elicitations?: unknown } }).data?.elicitations;
  return { message: errorMessage(error), links: Array.isArray(links) ? links : [] };
}

/** The JSON-RPC code of a server's error answer, if it was one. */
export function rpcCodeOf(error: unknown): number | undefined {
  const code = codeOf(error);
  return typeof code === 'number' ? code : undefined;
}

/** Maps our failures to what the server receives. */
export function toRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof InvalidSchemaError) {
    return new RpcError(RpcCode.invalidParams, `Invalid elicitation schema: ${describeProblems(error.problems)}`, { problems: error.problems });
  }
  if (error instanceof TooManyRequestsError) return new RpcError(RpcCode.invalidRequest, error.message);
  if (error instanceof AnswerCheckError) return new RpcError(RpcCode.internalError, error.message);
  return new RpcError(rpcCodeOf(error) ?? RpcCode.internalError, errorMessage(error));
}

/** Why a signal fired, for the person. */
export function abortMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' && reason ? reason : 'the call was cancelled';
}

/** Why the server's side of a question ended: it disconnected, or it withdrew the question. */
export function describeServerAbort(server: string, reason: unknown): string {
  if (isConnectionClosed(reason)) return `${server} disconnected`;
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return text ? `${server} withdrew the question: ${text}` : `${server} withdrew the question`;
}

/** Why a server no longer answers, in a few words: by network code, HTTP status, or message. */
export function describeLoss(error: unknown): string {
  const code = networkCodeOf(error);
  if (code) return `cannot be reached: ${code}`;
  const status = httpStatusOf(error);
  if (status !== undefined) return `HTTP ${status}`;
  return errorMessage(error);
}
