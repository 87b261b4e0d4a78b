/**
 * One request of ours that may ask the person on the way (`tools/call`, `prompts/get`,
 * `resources/read`), from send to result: its watchdog, its cancellation, its
 * input-required rounds, its progress, its sampler. The connection owns the lifecycle and
 * judges what a failure means for the server (`failure`); this owns the call.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { withCallCapabilities } from './capabilities';
import type { ElicitBridge, InFlightCall } from './elicit-bridge';
import { requiredLinksOf } from '../errors';
import type { CallOptions, ConnectionSettings, Root, ServerLog } from '../ports';
import { runRounds } from './rounds';
import type { Sdk } from '../sdk/sdk-loader';
import type { ToolInfo } from '../tool-info';
import type { Connected } from './transports';
import { taskBounds, type TaskSupport } from './tasks/tasks';
import { Watchdog } from './watchdog';

/** setTimeout's largest delay; `Infinity` would fire at once. Our watchdog owns the real limit. */
const NO_SDK_TIMEOUT = 2 ** 31 - 1;

export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

export interface TrackedCall extends InFlightCall {
  /** Aborts the call from inside (the server is stopped). */
  readonly abort: AbortController;
}

/** What a call needs of its connection, taken when the call begins. */
export interface CallContext {
  readonly server: string;
  readonly live: Connected;
  readonly sdk: Sdk;
  readonly settings: ConnectionSettings;
  readonly era: 'legacy' | 'modern' | undefined;
  readonly declared: ClientCapabilities;
  readonly tools: readonly ToolInfo[];
  readonly bridge: ElicitBridge;
  /** The connection's calls in flight: questions are matched to them, a stop aborts them. */
  readonly inFlight: Set<TrackedCall>;
  readonly roots: () => readonly Root[];
  readonly log: ServerLog;
  /** What a failed request means for the caller, secrets out (and for the server's liveness). */
  readonly failure: (error: unknown, signal: AbortSignal | undefined) => Promise<Error>;
  /** Runs a request that may need a sign-in (or more scope) first: signed in, it runs again. */
  readonly authorized: <T>(signal: AbortSignal, operation: () => Promise<T>) => Promise<T>;
  /** MCP Tasks on this connection (tasks/tasks.ts). */
  readonly tasks?: TaskSupport;
}

export interface CallRequest {
  readonly method: CallMethod;
  readonly params: Record<string, unknown>;
  /** The tool or prompt name, or the resource URI: for messages, and to find the tool. */
  readonly label: string;
}

/**
 * Sends the request and, while the result asks for input instead of answering, fulfils
 * every input request and retries (see rounds.ts). Resolves with the result as the server
 * sent it.
 */
export async function runCall(ctx: CallContext, request: CallRequest, options: CallOptions): Promise<unknown> {
  const { method, label } = request;
  const { settings } = ctx;
  const timeoutSeconds = Math.round(settings.toolTimeoutMs / 1000);
  const watchdog = new Watchdog(settings.toolTimeoutMs, () => `${label} on ${ctx.server} timed out: no answer or progress for ${timeoutSeconds} s`);
  const abort = new AbortController();
  const signal = AbortSignal.any([watchdog.signal, abort.signal, ...(options.signal ? [options.signal] : [])]);
  const tool = method === 'tools/call' ? ctx.tools.find((t) => t.name === label) : undefined;
  const call: TrackedCall = {
    name: label,
    ...(tool && { tool }),
    ...(options.caller && { caller: options.caller }),
    ...(options.sampling && { sampling: options.sampling }),
    ...(options.onProgress && { onProgress: options.onProgress }),
    watchdog,
    abort,
    signal,
  };
  ctx.inFlight.add(call);
  const sampler = options.sampling;
  try {
    // In the 2026 era capabilities travel with each request: declare sampling only for a call that can answer it.
    const declared = ctx.era === 'modern' ? withCallCapabilities(request.params, ctx.declared, sampler !== undefined) : request.params;
    const asTask = tool !== undefined && runsAsTask(ctx, tool.taskSupport);
    if (asTask) ctx.tasks!.admit(tool.title ?? label);
    // 2025-11-25: the call asks for a task (the server's default time to live); 2026-07-28: the server decides.
    const sent = asTask ? { ...declared, task: {} } : declared;
    const result = await runRounds(sent, {
      server: ctx.server,
      label,
      maxRounds: settings.maxRounds,
      signal,
      send: (current) => send(ctx, method, current, call),
      elicit: (raw, o) => ctx.bridge.elicit(raw, signal, [call], { asForm: o?.asForm === true }),
      roots: () => ctx.roots(),
      ...(sampler && {
        // The caller's model answering is not the server going quiet.
        sample: async (params, s) => {
          const resume = watchdog.pause();
          try {
            return await sampler(params, s);
          } finally {
            resume();
          }
        },
      }),
      waitForBrowser: (url, completed) => ctx.bridge.waitForBrowser(call, url, signal, completed),
      completion: (id, message) => ctx.bridge.completion(id, message),
      progress: (p) => options.onProgress?.(p),
      log: (line) => ctx.log.info(line),
    });
    const handle = taskHandleOf(result, asTask);
    if (!handle || !ctx.tasks) return result;
    // The task is the server's to run now: polling it shows it alive, and its own bound replaces the idle timeout.
    const resume = watchdog.pause();
    try {
      return await ctx.tasks.follow({
        ...handle,
        tool: tool?.title ?? label,
        startedAt: Date.now(),
        call,
        ...(options.caller && { caller: options.caller }),
        ...(options.signal && { cancelSignal: options.signal }),
        detachSignal: abort.signal,
        ...(options.onTask && { onTask: options.onTask }),
      });
    } finally {
      resume();
    }
  } catch (error) {
    throw await ctx.failure(error, signal);
  } finally {
    ctx.inFlight.delete(call);
    watchdog.dispose();
  }
}

/** 2025-11-25: the tool requires a task, or may run as one and the settings say so; only if the server takes task calls. */
function runsAsTask(ctx: CallContext, support: ToolInfo['taskSupport']): boolean {
  if (!ctx.tasks?.takesTaskCalls) return false;
  return support === 'required' || (support === 'optional' && taskBounds(ctx.settings.tasks).optionalAsTask);
}

/** The task a result hands us instead of the answer: 2025-11-25 `{task}` (to a call that asked for one), 2026-07-28 `resultType: "task"`. */
function taskHandleOf(result: unknown, askedForTask: boolean): { generation: 'v1' | 'v2'; taskId: string } | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as { resultType?: unknown; taskId?: unknown; task?: { taskId?: unknown } };
  if (r.resultType === 'task' && typeof r.taskId === 'string') return { generation: 'v2', taskId: r.taskId };
  if (askedForTask && typeof r.task?.taskId === 'string') return { generation: 'v1', taskId: r.task.taskId };
  return undefined;
}

/** One request of a call; the raw form of a result that asks for input, as the server sent it. */
async function send(ctx: CallContext, method: CallMethod, params: Record<string, unknown>, call: TrackedCall): Promise<unknown> {
  const watched = ctx.live.tap.watch(method, params);
  try {
    const result = await ctx.authorized(call.signal, () => ctx.live.client.request({ method, params }, ctx.sdk.AnyResultSchema, {
      timeout: NO_SDK_TIMEOUT,
      signal: call.signal,
      allowInputRequired: true,
      onprogress: (p) => {
        call.watchdog.reset();
        call.onProgress?.({ progress: p.progress, ...(p.total !== undefined && { total: p.total }), ...(p.message !== undefined && { message: p.message }) });
      },
    }));
    return watched.rawResult() ?? result;
  } catch (error) {
    // A 2026-07-28 task handle, which the SDK refuses as an unsupported result type.
    const raw = watched.rawResult() as { resultType?: unknown } | undefined;
    if (raw?.resultType === 'task' && !call.signal.aborted) return raw;
    // -32042 is for the rounds to handle.
    if (requiredLinksOf(error) && !call.signal.aborted) throw error;
    throw await ctx.failure(error, call.signal);
  } finally {
    watched.done();
  }
}
