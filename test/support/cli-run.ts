/**
 * The built runner (dist/cli.js) as the integration tests run it: a process whose exit code
 * and output are collected once it ends. Unbuilt, a test fails saying how to build it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './servers';

export const CLI = join(REPO, 'dist/cli.js');

/** What a process said by the time it ended: its exit code (-1 when a signal ended it) and all it wrote. */
export interface Finished {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function requireCli(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is not built: run "node scripts/build.mjs" first (npm run test:integration does it).');
}

/** Collects what the process writes until it ends (it must have been spawned with piped stdout and stderr). */
export function finished(child: ChildProcess): Promise<Finished> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** `node dist/cli.js <args>` with no terminal (stdin closed), to its end. */
export function runCli(args: readonly string[], options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  requireCli();
  return finished(spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(options.cwd && { cwd: options.cwd }), ...(options.env && { env: options.env }) }));
}
