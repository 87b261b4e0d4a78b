/**
 * An agent's process and its ACP stream (newline-delimited JSON over stdio). The stream
 * also keeps which of our requests are in flight, by JSON-RPC id: a question scoped by
 * `requestId` (before any session) belongs to one of them, and closes when it is answered.
 * Ending it (endChild, which acp-proxy uses too) escalates to SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { childEnvironment } from '../base/child-environment';
import type { AcpSdk } from './acp-sdk-loader';
import type { AgentDefinition, AgentClientPorts } from './ports';

const STDERR_LINES_KEPT = 20;
/** How long an agent asked to end has before it is killed. */
export const STOP_GRACE_MS = 2000;

export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Why it never ran (no such command), when it did not. */
  readonly error?: string;
  readonly stderrTail: readonly string[];
}

type Id = string | number | null;

export class AgentProcess {
  readonly stream: Stream;
  readonly exited: Promise<AgentExit>;
  /** How it ended, once it has. */
  exit: AgentExit | undefined;
  readonly stderrTail: string[] = [];
  /**
   * Takes each `session/update` notification as it is read, in order, instead of the SDK:
   * the SDK hands notifications to their handler after it settles a response read later
   * (a turn's end before its last words), and drops one its own schema refuses without a
   * word. Set by the client before anything is read.
   */
  onSessionUpdate: (params: unknown) => void = () => undefined;
  private readonly child: ChildProcess;
  /** Our requests awaiting their answer: id → method, and what closes with the answer. */
  private readonly ours = new Map<Id, { readonly method: string; readonly answered: AbortController }>();

  constructor(sdk: AcpSdk, definition: AgentDefinition, host: AgentClientPorts) {
    // Never the window's gateway token: the agent, and every command it runs, would hold it.
    const env = childEnvironment(host.baseEnv ?? process.env);
    for (const [k, v] of Object.entries(definition.env ?? {})) {
      if (v === null) delete env[k];
      else env[k] = v;
    }
    this.child = spawn(definition.command, [...definition.args], { env, stdio: ['pipe', 'pipe', 'pipe'], ...(definition.cwd !== undefined && { cwd: definition.cwd }) });
    this.exited = new Promise((resolve) => {
      let spawnError: string | undefined;
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        spawnError = `${definition.command} could not be started: ${error.code ?? error.message}`;
        // No process: no 'close' will follow the error.
        if (this.child.pid === undefined) resolve(this.ended({ code: null, signal: null, error: spawnError, stderrTail: this.stderrTail }));
      });
      this.child.once('close', (code, signal) => resolve(this.ended({ code, signal, ...(spawnError !== undefined && { error: spawnError }), stderrTail: this.stderrTail })));
    });
    // A write to a process that has gone is reported by its exit, not as an uncaught error.
    this.child.stdin!.on('error', () => undefined);
    let partial = '';
    this.child.stderr!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_LINES_KEPT) this.stderrTail.shift();
        host.log.stderr(line);
      }
    });
    this.stream = this.tracked(sdk.ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>));
  }

  private ended(exit: AgentExit): AgentExit {
    this.exit = exit;
    return exit;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The method of our request `id` while it waits for its answer. */
  methodInFlight(id: Id): string | undefined {
    return this.ours.get(id)?.method;
  }

  /** Fires when our request `id` is answered (or at once when it is not in flight). */
  untilAnswered(id: Id): AbortSignal {
    return this.ours.get(id)?.answered.signal ?? AbortSignal.abort(new Error('the request it belongs to has ended'));
  }

  /** Ends the process: SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  stop(graceMs = STOP_GRACE_MS): Promise<AgentExit> {
    return endChild(this.child, this.exited, { graceMs });
  }

  private tracked(inner: Stream): Stream {
    const writer = inner.writable.getWriter();
    const ours = this.ours;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the transform below is not a method of this class
    const owner = this;
    const writable = new WritableStream<AnyMessage>({
      async write(message) {
        if ('method' in message && 'id' in message) ours.set(message.id as Id, { method: message.method, answered: new AbortController() });
        await writer.write(message);
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    const readable = inner.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform(message, controller) {
          if ('method' in message && !('id' in message) && message.method === 'session/update') {
            owner.onSessionUpdate(message.params);
            return;
          }
          if (!('method' in message) && 'id' in message) {
            const id = message.id as Id;
            ours.get(id)?.answered.abort(new Error('the request it belongs to has ended'));
            ours.delete(id);
          }
          controller.enqueue(message);
        },
      }),
    );
    return { writable, readable };
  }
}

/**
 * Ends an agent's process: `signal` (SIGTERM unless another was passed on), then SIGKILL if it
 * is still there after `graceMs`, so that an agent which ignores the first never outlives us.
 * Resolves with `exited`.
 */
export async function endChild<T>(child: ChildProcess, exited: Promise<T>, options: { readonly signal?: NodeJS.Signals; readonly graceMs?: number } = {}): Promise<T> {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill(options.signal ?? 'SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.graceMs ?? STOP_GRACE_MS);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}
