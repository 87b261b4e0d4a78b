/**
 * What the tests see of processes, straight from `ps` and independent of the harness's own
 * bookkeeping (that is what they check): a process tree taken while everything runs, and
 * which of its processes are still alive later.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';

export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** Dead, its exit status not yet collected by its parent. */
  readonly zombie: boolean;
  readonly args: string;
}

export function processTable(): ProcessRow[] {
  const out = spawnSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 5)
    .map(([pid, ppid, pgid, stat, ...args]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: stat.startsWith('Z'), args: args.join(' ') }));
}

/** A live process and everything below it, with the members of every process group led by one of them. */
export function processTree(rootPid: number, rows: readonly ProcessRow[] = processTable()): ProcessRow[] {
  const found = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!found.has(row.pid) && (found.has(row.ppid) || found.has(row.pgid))) {
        found.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => found.has(r.pid) && !r.zombie);
}

/** Those still alive: the same pid and command line (a reused pid is someone else), not a zombie. */
export function stillAlive(processes: readonly ProcessRow[]): ProcessRow[] {
  const now = new Map(processTable().map((r) => [r.pid, r]));
  return processes.filter((p) => {
    const current = now.get(p.pid);
    return current !== undefined && !current.zombie && current.args === p.args;
  });
}

/** Waits until none of them is alive; returns those still alive at the deadline. */
export async function waitUntilGone(processes: readonly ProcessRow[], timeoutMs: number): Promise<ProcessRow[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = stillAlive(processes);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    alive = stillAlive(alive);
  }
  return alive;
}

/** After a failed check: ends what a test left running, so one failure does not pile up processes. */
export function killProcesses(processes: readonly ProcessRow[]): void {
  for (const { pid } of stillAlive(processes)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

export function describeProcesses(processes: readonly ProcessRow[]): string {
  return processes.map((p) => `  ${p.pid} (group ${p.pgid}) ${p.args.slice(0, 200)}`).join('\n');
}

/**
 * Collects a child's stdout and stderr; `waitFor` resolves with the first match of a pattern
 * in its stdout, and fails, with the output, when the child exits first or time runs out.
 */
export class ChildOutput {
  private stdoutText = '';
  private stderrText = '';

  constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => (this.stdoutText += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString()));
  }

  get text(): string {
    return `${this.stdoutText}${this.stderrText ? `\n--- stderr ---\n${this.stderrText}` : ''}`;
  }

  async waitFor(pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.stdoutText.match(pattern);
      if (match) return match;
      const ended = this.child.exitCode !== null || this.child.signalCode !== null;
      if (ended || Date.now() > deadline) {
        throw new Error(`${ended ? `the child exited (${this.child.signalCode ?? `exit code ${this.child.exitCode}`})` : `${timeoutMs / 1000} s passed`} before ${what}; its output:\n${this.text.slice(-6000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Resolves with how the child ended; fails when it is still running after `timeoutMs`. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the child (pid ${child.pid}) was still running ${timeoutMs / 1000} s after it was asked to end`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}
