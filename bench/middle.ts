/**
 * The cost of the middle: elicitations of the book_restaurant schema answered through our
 * connection, broker and validation (a scripted Prompter answers), against a bare SDK
 * Client whose handler returns the same answer, over the same transport (stdio to the
 * same fixture server) in the same run. The fixture times every round trip itself, so
 * both sides are measured by the same clock at the same point.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Prompter } from '../src/elicitation/broker';
import { submitted } from '../test/support/scripted-prompter';
import { createHost, FIXTURES, requireFixtures } from '../test/support/servers';
import { againstBaseline, median, round } from './stats';

const ANSWER = { party_size: 4, date: '2026-12-24', dietary: 'vegan' };

function durationsOf(result: unknown): number[] {
  const text = (result as { content: Array<{ text: string }> }).content[0].text;
  const parsed = JSON.parse(text) as { durations?: number[]; error?: string };
  if (!parsed.durations) throw new Error(`the benchmark tool failed: ${text}`);
  return parsed.durations;
}

/** Answers at once and keeps nothing (a test's ScriptedPrompter records every question). */
export const ANSWERING: Prompter = { ask: async (request) => ({ action: 'accept', answers: submitted(request, ANSWER) }) };

/** Our connection to the fixture's bench_elicit tool, no tool timeout (the memory bench uses it too). */
export function connectBenchServer(host: ReturnType<typeof createHost>, name = 'bench') {
  return host.connect(
    { name, source: { kind: 'user' }, config: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--only', 'bench_elicit'], env: {} } },
    { toolTimeoutMs: 0 },
  );
}

async function ours(count: number): Promise<number[]> {
  const host = createHost(ANSWERING);
  try {
    const connection = await connectBenchServer(host);
    return durationsOf(await connection.callTool('bench_elicit', { count }));
  } finally {
    await host.closeAll();
  }
}

async function bare(count: number): Promise<number[]> {
  const client = new Client({ name: 'bare', version: '0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: ANSWER }));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--only', 'bench_elicit'], stderr: 'ignore' }));
  try {
    return durationsOf(await client.callTool({ name: 'bench_elicit', arguments: { count } }, { timeout: 10 * 60_000 }));
  } finally {
    await client.close();
  }
}

export interface MiddleResult {
  elicitations: number;
  oursMedianMs: number;
  bareMedianMs: number;
  ratio: number;
  oursP90Ms: number;
  bareP90Ms: number;
  /** Each block's ratio of medians: their spread shows how much the machine moved meanwhile. */
  blockRatios: { min: number; median: number; max: number };
}

/** Alternates the two sides in 5 blocks (so neither gets a warmer machine) and pools the samples. */
export async function benchMiddle(total = 1000, rounds = 5): Promise<MiddleResult> {
  requireFixtures();
  const per = Math.ceil(total / rounds);
  // Warm both paths (JIT, module loading) before measuring.
  await bare(50);
  await ours(50);
  const oursSamples: number[] = [];
  const bareSamples: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const b = await bare(per);
    const o = await ours(per);
    bareSamples.push(...b);
    oursSamples.push(...o);
    ratios.push(median(o) / median(b));
  }
  return {
    elicitations: oursSamples.length,
    ...againstBaseline(oursSamples, bareSamples),
    blockRatios: { min: round(Math.min(...ratios)), median: round(median(ratios)), max: round(Math.max(...ratios)) },
  };
}
