/**
 * A stdio server's process, as far as the person needs it: the lines it writes to stderr
 * (each to the log, the last few kept), and how it ended (exit code or signal). One watch
 * per transport; a restart makes a new one.
 */
import type { ChildProcess } from 'node:child_process';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ServerLog } from '../ports';

const STDERR_LINES_KEPT = 20;

export interface CrashInfo {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderrTail: readonly string[];
}

export class ProcessWatch {
  /** The last lines of stderr, live: lines that arrive after the exit event still count. */
  readonly stderrTail: string[] = [];
  private exit: { readonly code: number | null; readonly signal: string | null } | undefined;
  private readonly exited: Promise<void>;
  private readonly stderrEnded: Promise<void>;
  private markExited!: () => void;
  private markStderrEnded!: () => void;

  /** `clean` is applied to every line before it is kept or logged (secrets out). */
  constructor(transport: StdioClientTransport, log: ServerLog, clean: (line: string) => string = (line) => line) {
    this.exited = new Promise((resolve) => (this.markExited = resolve));
    const stderr = transport.stderr;
    let partial = '';
    stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const raw of lines) {
        if (raw === '') continue;
        const line = clean(raw);
        this.stderrTail.push(line);
        if (this.stderrTail.length > STDERR_LINES_KEPT) this.stderrTail.shift();
        log.stderr(line);
      }
    });
    this.stderrEnded = new Promise((resolve) => (this.markStderrEnded = resolve));
    if (stderr) stderr.once('end', this.markStderrEnded).once('close', this.markStderrEnded);
    else this.markStderrEnded();
    // Watched from the spawn on, so a server that dies during the handshake still says how.
    const start = transport.start.bind(transport);
    transport.start = async () => {
      try {
        await start();
      } catch (error) {
        // Never spawned (no such command): there is no exit to wait for.
        this.markExited();
        this.markStderrEnded();
        throw error;
      }
      this.watchExit(transport);
    };
  }

  /** How the process ended, once it has. */
  get ended(): CrashInfo | undefined {
    return this.exit && { exitCode: this.exit.code, signal: this.exit.signal, stderrTail: this.stderrTail };
  }

  /**
   * Resolves once the process has exited and its stderr is read to the end, or after
   * `boundMs` (a process that closed its pipes may linger; the person is not kept waiting).
   */
  async settled(boundMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([this.exited, this.stderrEnded]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs))),
    ]);
    clearTimeout(timer);
  }

  private watchExit(transport: StdioClientTransport): void {
    // The SDK keeps the child private and forgets its exit code; we read it only to tell the
    // person how a crashed server ended. Without it the crash is still reported, codeless.
    const child = (transport as unknown as { _process?: ChildProcess })._process;
    if (!child) return this.markExited();
    if (child.exitCode !== null || child.signalCode !== null) {
      this.exit = { code: child.exitCode, signal: child.signalCode };
      return this.markExited();
    }
    child.once('exit', (code, signal) => {
      this.exit = { code, signal };
      this.markExited();
    });
  }
}

/** How a process ended, in words, with the last of what it said. */
export function describeCrash(crash: CrashInfo): string {
  const how = crash.exitCode !== null ? `exited with code ${crash.exitCode}` : `was killed by ${crash.signal}`;
  const tail = crash.stderrTail.length > 0 ? `; last output: ${crash.stderrTail.slice(-3).join(' | ')}` : '';
  return `the server ${how}${tail}`;
}
