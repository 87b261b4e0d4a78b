/**
 * The connection layer's ports: what its hosts (the VS Code UI, the runner, the tests)
 * implement and hand it, and what a caller gives with each call. No logic here.
 */
import type { ServerDefinition } from './config/config';
import type { ServerSignIn } from './sign-in/sign-in';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import type { Broker } from '../elicitation/broker';
import type { RequestSource } from '../elicitation/request';

export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  trace(message: string): void;
  /** JSON-RPC traffic is only serialised for the log when someone reads it. */
  readonly traceEnabled: boolean;
  /** A line the server wrote to stderr. */
  stderr(line: string): void;
}

export interface ConnectionSettings {
  /** Advertise URL mode (`elicitationHost.url.enabled`). */
  readonly urlMode: boolean;
  /** Fill fields left empty with their defaults when the person accepts. */
  readonly applyDefaults: boolean;
  /** A tool call fails after this long without progress; paused while it waits on a question. 0: never. */
  readonly toolTimeoutMs: number;
  /** A question is withdrawn after this long unanswered. 0: never (the default). */
  readonly elicitationTimeoutMs: number;
  /** Input-required rounds allowed for one call before we stop. */
  readonly maxRounds: number;
  /** `auto` offers MCP 2026-07-28 and falls back to the 2025 handshake; `legacy` uses the 2025 handshake only. */
  readonly negotiation?: 'auto' | 'legacy';
  /** How tool calls use MCP Tasks (defaults in `connection/tasks/bounds.ts`). */
  readonly tasks?: TaskSettings;
}

/** How tool calls use MCP Tasks. Task-required tools always run as tasks. */
export interface TaskSettings {
  /** A task-optional tool (2025-11-25 `execution.taskSupport: "optional"`) runs as a task too; default: a plain call. */
  readonly optionalAsTask?: boolean;
  /** How long we wait for one task of ours, from its creation, before we cancel it and say so. */
  readonly maxWaitMs?: number;
  /** Tasks of ours one server may run at once; a call past it fails before anything is sent. */
  readonly maxLive?: number;
}

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * A task of ours (a tool call the server runs as a task), as the UI shows it. Everything
 * the server sent is bounded: the status message is plain text of limited length, the
 * poll interval is clamped.
 */
export interface TaskInfo {
  readonly server: string;
  readonly taskId: string;
  /** The tool's title, or its name. */
  readonly tool: string;
  readonly generation: '2025-11-25' | '2026-07-28';
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** When we created (or resumed) it, ms since the epoch. */
  readonly startedAt: number;
  /** The server's time to live, ms; null: unlimited. */
  readonly ttlMs: number | null;
  /** How often we poll it, ms (the server's hint, clamped). */
  readonly pollIntervalMs: number;
  readonly caller?: Caller;
  /** Resumed from a reference after a reload: nobody waits on a call for its result. */
  readonly resumed?: boolean;
  /** Asks the server to cancel it (`tasks/cancel`); its open question closes. */
  cancel(): Promise<void>;
}

/** A 2026-07-28 task kept across reloads: enough to find it again and say what it is. */
export interface TaskRecord {
  readonly server: string;
  readonly tool: string;
  readonly startedAt: number;
  /** ext-tasks' `SerializedTaskReference`, JSON as it is. */
  readonly reference: { readonly endpointId: string; readonly generation: 'v2'; readonly taskId: string; readonly originalOperation: 'tools/call' };
}

/**
 * Where 2026-07-28 task references live across reloads: the UI implements it with
 * workspace state, tests in memory. 2025-era tasks are never kept (see connection/tasks/runner.ts).
 */
export interface TaskReferences {
  load(server: string): readonly TaskRecord[];
  save(record: TaskRecord): void;
  forget(server: string, taskId: string): void;
}

/** A resumed task ended with nobody's call waiting for it: its result (or why it failed), for the UI to show. */
export interface SettledTask {
  readonly task: TaskInfo;
  readonly result?: Record<string, unknown>;
  readonly error?: string;
}

/** The person's side of a link flow, beyond the link prompt itself. */
export interface UrlFlow {
  /**
   * After a link was opened where only a retry tells the outcome (MCP 2026-07-28, and a
   * -32042 retry): true when the person says they have finished in the browser, false
   * when they cancel the call.
   */
  finishedInBrowser(source: RequestSource, url: string, signal: AbortSignal): Promise<boolean>;
  /** The server reported a URL elicitation complete. */
  completed(server: string, message: string): void;
}

export interface Root {
  readonly uri: string;
  readonly name?: string;
}

export interface CallProgress {
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
  /** The input-required round, from 1, while the server asks for more input. */
  readonly round?: number;
  /** A question of this call was put to the person (true) or ended (false): ours, not the server's. */
  readonly asking?: boolean;
}

/**
 * Who made a call: shown to the person with every question it raises. An agent we started
 * ourselves (ACP) also names its session, by its title at the time of the question.
 */
export type Caller = { readonly kind: 'person' } | { readonly kind: 'agent'; readonly name: string; readonly session?: string };

/** Answers `sampling/createMessage` for a call (the gateway's downstream client, when it offers sampling). */
export type Sampler = (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult>;

export interface CallOptions {
  /** Fires when the caller cancels: the server hears `notifications/cancelled` and every open question of the call closes. */
  readonly signal?: AbortSignal;
  /** The server's progress, and ours (the rounds, "waiting for your answer"). */
  readonly onProgress?: (progress: CallProgress) => void;
  readonly caller?: Caller;
  /** Serves the server's sampling requests made during this call; without it they are refused. */
  readonly sampling?: Sampler;
  /** The call runs as a task: told when it is created and at each change of its status. */
  readonly onTask?: (task: TaskInfo) => void;
}

export type ListKind = 'tools' | 'resources' | 'prompts';

export interface ConnectionDeps {
  readonly broker: Broker;
  readonly log: ServerLog;
  readonly settings: () => ConnectionSettings;
  readonly roots: () => readonly Root[];
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly urlFlow: UrlFlow;
  /** Where `http` servers reconnect after an unexpected close: delays in ms, last one repeats. */
  readonly reconnectDelaysMs?: readonly number[];
  /**
   * A 2025-era question was refused with a protocol error (a schema outside the elicitation
   * subset, a mode this client does not offer, too many open questions): the server got
   * the error and the call goes on, so nothing else would tell the caller.
   */
  readonly onElicitationRefused?: (source: RequestSource, error: { readonly code: number; readonly message: string }) => void;
  /**
   * This host relays sampling to callers that offer it (the gateway): 2025-era connections
   * then declare `sampling` at `initialize` (see `capabilities.ts` for why per era).
   */
  readonly relaySampling?: boolean;
  /** Values the person gave for `${input:}` variables of this server: never shown in any text the connection produces. */
  readonly secrets?: readonly string[];
  /** The sign-in (OAuth) of an HTTP server, made once per connection; none: a 401 is an error. */
  readonly signIn?: (definition: ServerDefinition) => ServerSignIn | undefined;
  /** Keeps 2026-07-28 task references across reloads; a started connection resumes the ones kept for it. */
  readonly taskReferences?: TaskReferences;
  /** Timings for `npm run bench` (a question's arrival, `mcpElicitationReceived`): set only in the benchmark build. */
  readonly timings?: Timings;
}

/** Where the benchmark build records a timing for `npm run bench` (bench/extension-hooks.ts); the shipped build passes none. */
export type Timings = (record: Record<string, unknown>) => void;
