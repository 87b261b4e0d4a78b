/**
 * Requests a 2025-era server sends us on its own: `elicitation/create` and
 * `sampling/createMessage`. Both are served only while a call of ours is in flight.
 *
 * MCP 2025-11-25 (basic/transports, Streamable HTTP) says requests a server sends while
 * answering a client request "SHOULD relate to the originating client request", and still
 * lets it send unrelated ones on its standalone GET stream. SEP-2260 (Final; normative
 * from 2026-07-28) makes it a MUST: `roots/list`, `sampling/createMessage` and
 * `elicitation/create` only in association with an originating client request, never
 * standalone. We hold every era to the stricter rule for the two that reach a person or a
 * model: otherwise any server could raise prompts at will. `roots/list` stays answered
 * (it shows nothing, and servers ask it right after `initialize`).
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import type { RequestSource } from '../../elicitation/request';
import { type ElicitBridge, type InFlightCall, sourceOf } from './elicit-bridge';
import { RpcCode, RpcError, toRpcError } from '../errors';
import type { ServerLog } from '../ports';

export interface ServerRequestDeps {
  readonly server: string;
  readonly bridge: ElicitBridge;
  readonly log: ServerLog;
  inFlight(): readonly InFlightCall[];
  /** Sampling was declared at `initialize` (see capabilities.ts). */
  readonly relaySampling: boolean;
  readonly onElicitationRefused?: (source: RequestSource, error: { readonly code: number; readonly message: string }) => void;
}

const OUR_CALLS = 'tools/call, resources/read or prompts/get';

export class ServerRequests {
  constructor(private readonly deps: ServerRequestDeps) {}

  /** A 2025-era `elicitation/create`, raw: answered, or refused with a JSON-RPC error saying why. */
  async elicit(params: unknown, serverSignal: AbortSignal): Promise<Record<string, unknown>> {
    const { server, log } = this.deps;
    // The wire does not say which call a request belongs to: any call in flight may own it.
    const candidates = [...this.deps.inFlight()];
    try {
      if (candidates.length === 0) {
        log.warn('refused a question that belongs to no call (none of ours is in flight)');
        throw new RpcError(RpcCode.invalidRequest, `${server}: this client only answers questions that belong to a request it sent, and no ${OUR_CALLS} of this client is in flight (MCP SEP-2260)`);
      }
      if (candidates.length > 1) log.info(`a question arrived while ${candidates.length} calls were running; it is not attributed to one of them`);
      return { ...(await this.deps.bridge.elicit(params, serverSignal, candidates)) };
    } catch (error) {
      const refusal = toRpcError(error);
      if (candidates.length > 0) {
        log.warn(`refused a question (${refusal.code}): ${refusal.message}`);
        this.deps.onElicitationRefused?.(sourceOf(server, candidates), { code: refusal.code, message: refusal.message });
      }
      throw refusal;
    }
  }

  /**
   * A 2025-era `sampling/createMessage`: relayed to the caller of the one call in flight when
   * it can sample; refused otherwise (no call, several calls that cannot be told apart, a
   * caller without sampling).
   */
  async sample(params: unknown, serverSignal: AbortSignal): Promise<Record<string, unknown>> {
    const { server, log } = this.deps;
    if (!this.deps.relaySampling) throw new RpcError(RpcCode.methodNotFound, 'Method not found: sampling/createMessage (this client does not offer sampling)');
    const calls = this.deps.inFlight();
    const refuse = (why: string): never => {
      log.warn(`refused a sampling request: ${why}`);
      throw new RpcError(RpcCode.invalidRequest, `${server}: sampling refused: ${why}`);
    };
    if (calls.length === 0) refuse(`it belongs to no request of this client (no ${OUR_CALLS} is in flight; MCP SEP-2260)`);
    if (calls.length > 1) refuse(`${calls.length} calls are in flight and the request does not say which one it belongs to`);
    const [call] = calls;
    if (!call.sampling) refuse(`the caller of ${call.name} cannot answer sampling requests`);
    const resume = call.watchdog.pause();
    try {
      return { ...(await call.sampling!(params as CreateMessageRequestParams, AbortSignal.any([serverSignal, call.signal]))) };
    } finally {
      resume();
    }
  }
}
