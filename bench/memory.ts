/**
 * Memory: does the middle keep anything per question? The heap (after forced garbage
 * collection) once 10 elicitations have been answered, against the heap after 1,000 more,
 * in a process of its own started with --expose-gc; the same for 1,000 tool calls through
 * the gateway. Goal: growth under 5 MB each.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface MemoryFigure {
  readonly beforeMb: number;
  readonly afterMb: number;
  readonly growthMb: number;
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 100) / 100;

function figure({ before, after }: { before: number; after: number }): MemoryFigure {
  return { beforeMb: mb(before), afterMb: mb(after), growthMb: mb(after - before) };
}

export function benchMemory(): { elicitations: MemoryFigure; gatewayCalls: MemoryFigure } {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'memory-child.ts')], { encoding: 'utf8', cwd: join(__dirname, '..'), timeout: 10 * 60_000 });
  if (child.status !== 0) throw new Error(`the memory bench failed: ${child.stderr || child.stdout}`);
  const line = child.stdout.trim().split('\n').at(-1) ?? '';
  const raw = JSON.parse(line) as { elicitations: { before: number; after: number }; gatewayCalls: { before: number; after: number } };
  return { elicitations: figure(raw.elicitations), gatewayCalls: figure(raw.gatewayCalls) };
}
