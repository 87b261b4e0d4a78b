/**
 * One SDK `Server` that serves one upstream server to one agent: lists and calls go to
 * the `Upstream` port as they came, results and definitions come back as the upstream
 * sent them. Upstream questions never reach the agent: the connection layer puts them to
 * the person, and the call is made with the agent as its `caller` so the person sees
 * whose call asks. The same handlers serve both protocol eras (a 2025 session, or one
 * 2026-07-28 request).
 */
import type { ProtocolError, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { ResultSink } from '../elicitation/history';
import { withoutInvisible } from '../elicitation/plain-text';
import type { InputStore } from '../elicitation/store';
import { formatToolResult } from '../mcp/result-format';
import type { Caller, Upstream, UpstreamCallOptions } from '../mcp/servers/upstream';
import type { AgentGrant } from './agent-grants';
import { ProgressRelay } from './progress-relay';
import { SAMPLING_KEY, SuspendableCall, type SuspendedCalls } from './sampling-rounds';
import { asPlainTool } from './task-tools';
import type { Timings } from '../mcp/ports';
import { serverSdk } from '../mcp/sdk/sdk-loader';
import { errorMessage } from '../base/error-message';

/** The protocol versions we speak downstream, newest first. */
export const SERVED_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

export interface ForwardingDeps {
  readonly upstream: Upstream;
  /** Reported with the upstream's name as our server version. */
  readonly version: string;
  /** Open questions, to know when the person is answering one of a call's questions. */
  readonly store?: InputStore;
  readonly heartbeatMs?: number;
  /** Calls suspended while their agent answers a sampling request (one set per endpoint). */
  readonly suspended: SuspendedCalls;
  /** A tool call's result, in words, for the questions it asked (the History keeps it with them). */
  readonly onToolResult?: ResultSink;
  /** Timings for `npm run bench`: set only in the benchmark build. */
  readonly timings?: Timings;
  /** The agent session this server serves, when the request carried its own token: it names the caller. */
  readonly grant?: AgentGrant;
}

/** The longest agent name we pass on: it is shown in every question the call raises. */
const AGENT_NAME_MAX = 60;

/** Who the agent says it is (its `clientInfo`), for the person: title over name, as plain text. */
export function agentName(info: { name?: unknown; title?: unknown } | undefined): string {
  const pick = typeof info?.title === 'string' && info.title.trim() ? info.title : typeof info?.name === 'string' ? info.name : '';
  const plain = withoutInvisible(pick).replace(/\s+/g, ' ').trim();
  if (!plain) return 'an agent';
  return plain.length > AGENT_NAME_MAX ? `${plain.slice(0, AGENT_NAME_MAX - 1)}…` : plain;
}

/** An upstream protocol error keeps its code on the way down; anything else is our failure, in words. */
function asProtocolError(error: unknown): ProtocolError {
  const { ProtocolError, ProtocolErrorCode } = serverSdk();
  if (error instanceof ProtocolError) return error;
  const code = (error as { code?: unknown }).code;
  const data = (error as { data?: unknown }).data;
  return new ProtocolError(typeof code === 'number' ? code : ProtocolErrorCode.InternalError, errorMessage(error), data);
}

type Forwarded = CallToolResult | GetPromptResult | ReadResourceResult;

/**
 * Builds the server for one agent: capabilities cover every list the upstream may have
 * (a list the upstream lacks answers empty), all with `listChanged`, since the upstream
 * can change or restart under us.
 */
export function createForwardingServer(deps: ForwardingDeps): Server {
  const { upstream } = deps;
  const { inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, Server } = serverSdk();
  const server = new Server(
    { name: upstream.name, version: deps.version },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } },
      supportedProtocolVersions: SERVED_PROTOCOL_VERSIONS,
    },
  );

  // An agent we started is named as the person configured it, with its session; any other by what it says it is.
  const caller = (): Caller & { kind: 'agent' } => {
    if (!deps.grant) return { kind: 'agent', name: agentName(server.getClientVersion()) };
    const session = deps.grant.session();
    return { kind: 'agent', name: deps.grant.agent, ...(session !== undefined && { session }) };
  };
  const canSample = (): boolean => server.getClientCapabilities()?.sampling !== undefined;
  const has = (capability: 'resources' | 'prompts'): boolean => upstream.capabilities()?.[capability] !== undefined;

  /**
   * Runs one forwarded request (tools/call, prompts/get, resources/read) with progress,
   * cancellation and caller; suspends it in sampling rounds when the agent can sample.
   */
  async function forward<R extends Forwarded>(
    ctx: ServerContext,
    run: (options: UpstreamCallOptions) => Promise<R>,
  ): Promise<R | ReturnType<typeof inputRequired>> {
    const who = caller();
    const token = ctx.mcpReq._meta?.progressToken;
    const relay = new ProgressRelay(
      token === undefined
        ? undefined
        : (note) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...note } }).catch(() => undefined),
    );
    // A server that starts slowly (npx fetching it, say) must not time the agent out either.
    await relay.during(upstream.ensureStarted(), `Starting ${upstream.name}`, deps.heartbeatMs);
    const stopWatching = deps.store ? relay.whileAsking(deps.store, (source) => source.server === upstream.name && source.agent === who.name, deps.heartbeatMs) : undefined;
    try {
      if (!canSample()) {
        return await run({ signal: ctx.mcpReq.signal, caller: who, onProgress: (p) => relay.forward(p) });
      }
      return await sampledRound(ctx, relay, (sampler, signal, onProgress) => run({ signal, caller: who, onProgress, sampling: sampler }));
    } finally {
      stopWatching?.();
    }
  }

  /** One round of a call that may ask its agent for sampling (see sampling-rounds.ts). */
  async function sampledRound<R extends Forwarded>(
    ctx: ServerContext,
    relay: ProgressRelay,
    start: ConstructorParameters<typeof SuspendableCall<R>>[0],
  ): Promise<R | ReturnType<typeof inputRequired>> {
    const state = ctx.mcpReq.requestState<string>();
    let call: SuspendableCall<R>;
    if (typeof state === 'string') {
      const resumed = deps.suspended.take<R>(state);
      if (!resumed) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'This call is no longer waiting for a sampling answer (it ended, or waited too long)');
      call = resumed;
      const view = inputResponse(ctx.mcpReq.inputResponses, SAMPLING_KEY);
      call.answer(view.kind === 'sampling' ? (view.result as never) : new Error('the agent sent no sampling result'));
    } else {
      call = new SuspendableCall<R>(start);
    }
    call.onProgress = (p) => relay.forward(p);
    const onAbort = (): void => call.abort.abort(ctx.mcpReq.signal.reason ?? new Error('the agent cancelled the call'));
    ctx.mcpReq.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const event = await call.next(ctx.mcpReq.signal);
      switch (event.kind) {
        case 'done':
          return event.result;
        case 'failed':
          throw event.error;
        case 'sampling':
          deps.suspended.park(call as SuspendableCall<unknown>);
          return inputRequired({ inputRequests: { [SAMPLING_KEY]: inputRequired.createMessage(event.params) }, requestState: call.id });
      }
    } finally {
      ctx.mcpReq.signal.removeEventListener('abort', onAbort);
      call.onProgress = undefined;
    }
  }

  server.setRequestHandler('tools/list', async () => {
    await upstream.ensureStarted();
    // Task tools are plain tools to agents: we run their tasks (task-tools.ts says why).
    return { tools: (await upstream.listTools()).map(asPlainTool) };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const since = Date.now();
    deps.timings?.({ event: 'gatewayToolCall', at: since });
    try {
      const result = await forward(ctx, (options) => upstream.callTool(name, args ?? {}, options));
      if ((result as { resultType?: unknown }).resultType === 'input_required') return result;
      const called = result as CallToolResult;
      // Structured content needs the era's projection (and the tool's output schema); the History names the tool by its title.
      const tool = called.structuredContent !== undefined || deps.onToolResult ? (await upstream.listTools()).find((t) => t.name === name) : undefined;
      // Formatted only if a question of this call is in the History (mcp/connection/elicit-bridge.ts sourceOf names it so).
      deps.onToolResult?.({ server: upstream.name, tool: tool?.title ?? name, agent: caller().name, since }, () => formatToolResult(upstream.name, name, args ?? {}, called as unknown as Record<string, unknown>));
      // The rest travels as it came.
      if (called.structuredContent === undefined) return called;
      return server.projectCallToolResult(called, tool?.outputSchema);
    } catch (error) {
      // A refusal by the upstream protocol (unknown tool, bad arguments) stays a protocol error;
      // anything else (it could not start, the person cancelled, it died) is the call's result, in words.
      if (typeof (error as { code?: unknown }).code === 'number' && !(error instanceof Error && error.name === 'CallError')) throw asProtocolError(error);
      return { content: [{ type: 'text', text: errorMessage(error) }], isError: true };
    }
  });

  server.setRequestHandler('resources/list', async (request) => {
    await upstream.ensureStarted();
    return has('resources') ? upstream.listResources(request.params?.cursor) : { resources: [] };
  });

  server.setRequestHandler('resources/templates/list', async (request) => {
    await upstream.ensureStarted();
    return has('resources') ? upstream.listResourceTemplates(request.params?.cursor) : { resourceTemplates: [] };
  });

  server.setRequestHandler('resources/read', async (request, ctx) => {
    try {
      return await forward(ctx, (options) => upstream.readResource(request.params.uri, options));
    } catch (error) {
      throw asProtocolError(error);
    }
  });

  server.setRequestHandler('prompts/list', async (request) => {
    await upstream.ensureStarted();
    return has('prompts') ? upstream.listPrompts(request.params?.cursor) : { prompts: [] };
  });

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    try {
      return await forward(ctx, (options) => upstream.getPrompt(request.params.name, request.params.arguments, options));
    } catch (error) {
      throw asProtocolError(error);
    }
  });

  return server;
}
