/**
 * The room `src/mcp/connection/tasks/`: MCP Tasks on one connection, on
 * @modelcontextprotocol/ext-tasks: this file (what a connection does with tasks), `port` (the
 * library's view of our client), `runner` (a task-backed call to its end), `questions` (a
 * task's questions), `receiver` (task-backed questions sent to us), `list` (the live tasks
 * the views show) and `bounds` (what a server controls, clamped). This file is the room's
 * way in: the connection (`connection`, `calls`) takes all it uses of the room from here,
 * and the room reaches the connection's parts below it, never the connection itself.
 *
 * MCP Tasks on one live connection: the port and ext-tasks session that follow tasks of
 * ours, the receiver of task-backed questions sent to us, and which of the server's
 * requests and notifications go to them. Made when a client connects, closed with it
 * (closing lets go of every task without cancelling any: see runner.ts).
 */
import type { Client, ClientCapabilities } from '@modelcontextprotocol/client';
import type { TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import type { ServerDefinition } from '../../config/config';
import type { ElicitBridge, InFlightCall } from '../elicit-bridge';
import { CallError, type RpcError } from '../../errors';
import { errorMessage } from '../../../base/error-message';
import type { Root, ServerLog, TaskInfo, TaskRecord, TaskReferences } from '../../ports';
import { loadTasksLib, type Sdk, type TasksLib } from '../../sdk/sdk-loader';
import type { ServerRequests } from '../server-requests';
import { clampPollInterval, type TaskBounds } from './bounds';
import type { TaskList } from './list';
import { relatedTaskOf, taskGeneration, TaskPort } from './port';
import { type TaskCall, taskInputHandler } from './questions';
import { TaskReceiver } from './receiver';
import { followTask, type TaskToFollow } from './runner';
import type { Connected } from '../transports';
import { Watchdog } from '../watchdog';

// What the connection uses of the room besides TaskSupport: the live tasks' list, made with the connection, and the bounds its calls read.
export { TaskList } from './list';
export { taskBounds } from './bounds';

export interface TaskSupportDeps {
  readonly definition: ServerDefinition;
  readonly sdk: Sdk;
  readonly live: Connected;
  readonly era: 'legacy' | 'modern' | undefined;
  readonly serverCapabilities: Readonly<Record<string, unknown>> | undefined;
  readonly declared: ClientCapabilities;
  readonly bridge: ElicitBridge;
  readonly requests: ServerRequests;
  readonly list: TaskList;
  readonly bounds: () => TaskBounds;
  readonly references?: TaskReferences;
  readonly relaySampling: boolean;
  inFlight(): readonly InFlightCall[];
  readonly roots: () => readonly Root[];
  readonly log: ServerLog;
  readonly authorized: <T>(signal: AbortSignal, operation: () => Promise<T>) => Promise<T>;
  readonly onRefused?: (calls: readonly InFlightCall[], error: RpcError) => void;
}

/**
 * Which server a task reference belongs to: its name and where it is reached (never its
 * environment or headers, which may hold secrets), digested by ext-tasks.
 */
export function endpointOf(definition: ServerDefinition, lib: TasksLib): Promise<string> {
  const { config } = definition;
  const where = config.type === 'stdio' ? { command: config.command, args: config.args ?? [] } : { url: config.url };
  return lib.createTaskSessionEndpointId('elicitation-host', { name: definition.name, ...where });
}

export class TaskSupport {
  readonly port: TaskPort;
  readonly session: TaskEnabledSession<TaskCall>;
  private readonly receiver: TaskReceiver;
  /** Aborts when the connection goes: every task is let go of. */
  private readonly closed = new AbortController();

  private constructor(
    private readonly deps: TaskSupportDeps,
    lib: TasksLib,
    endpointId: string,
  ) {
    const { sdk, live, log } = deps;
    this.port = new TaskPort({
      endpointId,
      sdk,
      lib,
      live,
      taskCapabilities: taskGeneration(deps.era, deps.serverCapabilities),
      declared: deps.declared,
      authorized: deps.authorized,
    });
    const name = deps.definition.name;
    this.session = lib.withTasks<TaskCall>(this.port, {
      // Declarations are ours to give per task; without this the session lists the tools itself.
      tools: { currentTool: () => undefined },
      onInputRequest: taskInputHandler({ server: name, lib, bridge: deps.bridge, port: this.port, session: () => this.session, roots: deps.roots, log }),
      onError: (error) => log.info(`tasks: ${errorMessage(error)}`),
    });
    this.receiver = new TaskReceiver({
      server: name,
      lib,
      client: live.client,
      bridge: deps.bridge,
      requests: deps.requests,
      inFlight: deps.inFlight,
      relaySampling: deps.relaySampling,
      log,
      ...(deps.onRefused && { onRefused: deps.onRefused }),
    });
  }

  static async create(deps: TaskSupportDeps): Promise<TaskSupport> {
    const lib = await loadTasksLib(deps.sdk);
    return new TaskSupport(deps, lib, await endpointOf(deps.definition, lib));
  }

  get client(): Client {
    return this.deps.live.client;
  }

  /** The Tasks generation the server speaks: none, 2025-11-25 (`v1`) or the 2026-07-28 extension (`v2`). */
  get generation(): 'none' | 'v1' | 'v2' {
    return this.port.taskCapabilities.generation;
  }

  /** The 2025-11-25 server takes task-augmented tool calls. */
  get takesTaskCalls(): boolean {
    const caps = this.port.taskCapabilities;
    return caps.generation === 'v1' && isObject((caps.capabilities as { requests?: { tools?: { call?: unknown } } }).requests?.tools?.call);
  }

  /**
   * A request from the server that is ours to serve here: a task-backed question or a
   * request about one (the receiver), or a question naming a task of ours (the session).
   * Undefined: not a Tasks matter, for the plain path.
   */
  async serve(method: string, params: unknown, context: unknown): Promise<Record<string, unknown> | undefined> {
    if (this.receiver.handles(method, params)) return this.receiver.handle(method, params, context);
    if ((method === 'elicitation/create' || method === 'sampling/createMessage' || method === 'roots/list') && relatedTaskOf(params) !== undefined) {
      return this.port.offerRequest(method, params, context);
    }
    return undefined;
  }

  notified(method: string, params: unknown): void {
    if (method === 'notifications/tasks/status' || method === 'notifications/tasks') this.port.offerNotification(method, params);
  }

  /** Refuses a new task of ours past the server's bound of live tasks. */
  admit(tool: string): void {
    const { maxLive } = this.deps.bounds();
    if (this.deps.list.size >= maxLive) {
      throw new CallError(`${this.deps.definition.name} already runs ${this.deps.list.size} tasks of ours (at most ${maxLive}); ${tool} was not started`);
    }
  }

  /** Follows one task of ours (see runner.ts). */
  follow(task: Omit<TaskToFollow, 'detachSignal'> & { readonly detachSignal?: AbortSignal }): Promise<Record<string, unknown>> {
    const detachSignal = task.detachSignal ? AbortSignal.any([task.detachSignal, this.closed.signal]) : this.closed.signal;
    return followTask(
      {
        server: this.deps.definition.name,
        session: this.session,
        port: this.port,
        list: this.deps.list,
        bounds: this.deps.bounds(),
        ...(this.deps.references && { references: this.deps.references }),
        log: this.deps.log,
      },
      { ...task, detachSignal },
    );
  }

  /**
   * Picks up the 2026-07-28 tasks kept for this server (a reload let go of them): each is
   * followed again, its pending question asked again, and its end told through the list's
   * `onSettled`, since no call waits for it. A kept task of another endpoint or generation,
   * or one the server no longer knows, is forgotten.
   */
  resumeKept(): void {
    const { references, list, definition, log } = this.deps;
    if (!references) return;
    const server = definition.name;
    for (const record of references.load(server)) {
      const taskId = record.reference.taskId;
      if (this.generation !== 'v2' || record.reference.endpointId !== this.port.endpointId) {
        log.info(`forgot the kept task ${taskId} of ${record.tool}: ${server} no longer offers 2026-07-28 tasks at the same address`);
        references.forget(server, taskId);
        continue;
      }
      let last: TaskInfo | undefined;
      const call: InFlightCall = { name: record.tool, watchdog: new Watchdog(0, () => ''), signal: this.closed.signal };
      log.info(`resuming the task ${taskId} of ${record.tool}`);
      this.follow({ generation: 'v2', taskId, tool: record.tool, startedAt: record.startedAt, call, resumed: true, onTask: (task) => (last = task) }).then(
        (result) => list.onSettled.fire({ task: last ?? ended(record, server, 'completed'), result }),
        (error: unknown) => {
          if (this.closed.signal.aborted) return;
          references.forget(server, taskId);
          log.warn(`the resumed task ${taskId} of ${record.tool} ended: ${errorMessage(error)}`);
          list.onSettled.fire({ task: last ?? ended(record, server, 'failed'), error: errorMessage(error) });
        },
      );
    }
  }

  /** The connection is gone: tasks are let go of (not cancelled), task-backed questions withdrawn. */
  close(reason: Error): void {
    if (this.closed.signal.aborted) return;
    this.closed.abort(reason);
    this.receiver.close();
    this.port.invalidate(reason);
  }
}

/** What is known of a kept task that ended before it was followed again (the server no longer knew it). */
function ended(record: TaskRecord, server: string, status: 'completed' | 'failed'): TaskInfo {
  return {
    server,
    taskId: record.reference.taskId,
    tool: record.tool,
    generation: '2026-07-28',
    status,
    startedAt: record.startedAt,
    ttlMs: null,
    pollIntervalMs: clampPollInterval(undefined),
    resumed: true,
    cancel: () => Promise.resolve(),
  };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
