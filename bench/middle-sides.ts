/**
 * The two sides of the middle bench, bundled by `npm run build` into out/bench/middle-sides.js
 * the way the extension is bundled (esbuild, no keepNames): run from source through tsx, our
 * side paid for tsx's `__name` wrappers, which the shipped bundle does not have, while the
 * bare side ran the SDK's own build. Both sides now run the same bundled SDK.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Answers } from '../src/elicitation/model';
import type { Prompter } from '../src/elicitation/broker';
import { submitted } from '../test/support/scripted-prompter';
import { createHost, FIXTURES } from '../test/support/servers';

const ANSWER = { party_size: 4, date: '2026-12-24', dietary: 'vegan' };

function durationsOf(result: unknown): number[] {
  const text = (result as { content: Array<{ text: string }> }).content[0].text;
  const parsed = JSON.parse(text) as { durations?: number[]; error?: string };
  if (!parsed.durations) throw new Error(`the benchmark tool failed: ${text}`);
  return parsed.durations;
}

/**
 * Answers at once and keeps nothing (a test's ScriptedPrompter records every question). The
 * answers are made once, as the bare client's handler returns one object: what a person's
 * side costs is not the middle's.
 */
let answers: Answers | undefined;
export const ANSWERING: Prompter = { ask: async (request) => ({ action: 'accept', answers: (answers ??= submitted(request, ANSWER)) }) };

/** Our connection to the fixture's bench_elicit tool, no tool timeout (the memory bench uses it too). */
export function connectBenchServer(host: ReturnType<typeof createHost>, name = 'bench') {
  return host.connect(
    { name, source: { kind: 'user' }, config: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--only', 'bench_elicit'], env: {} } },
    { toolTimeoutMs: 0 },
  );
}

/** `count` elicitations answered through our connection, broker and validation: each round trip as the fixture timed it. */
export async function ours(count: number): Promise<number[]> {
  const host = createHost(ANSWERING);
  try {
    const connection = await connectBenchServer(host);
    return durationsOf(await connection.callTool('bench_elicit', { count }));
  } finally {
    await host.closeAll();
  }
}

/** The same through a bare SDK client whose handler returns the same answer. */
export async function bare(count: number): Promise<number[]> {
  const client = new Client({ name: 'bare', version: '0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: ANSWER }));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--only', 'bench_elicit'], stderr: 'ignore' }));
  try {
    return durationsOf(await client.callTool({ name: 'bench_elicit', arguments: { count } }, { timeout: 10 * 60_000 }));
  } finally {
    await client.close();
  }
}
