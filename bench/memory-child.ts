/**
 * Run by bench/memory.ts under `node --expose-gc`: the heap after the first 10 and after
 * 1,000 more elicitations answered through our connection and broker (a scripted prompter
 * answers), and the same for tool calls through the gateway. Prints one JSON line.
 */
import { createHost, requireFixtures } from '../test/support/servers';
import { agent, startOurs } from './gateway';
import { ANSWERING, connectBenchServer } from './middle-sides';

/** The heap in use once garbage is collected (twice: finalizers of the first round free more). */
async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (bench/memory.ts does)');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function elicitations(first: number, more: number): Promise<{ before: number; after: number }> {
  const host = createHost(ANSWERING);
  try {
    const connection = await connectBenchServer(host, 'memory');
    // One call per elicitation, as agents make them: each call, question and answer must leave nothing behind.
    for (let i = 0; i < first; i++) await connection.callTool('bench_elicit', { count: 1 });
    const before = await settledHeap();
    for (let i = 0; i < more; i++) await connection.callTool('bench_elicit', { count: 1 });
    return { before, after: await settledHeap() };
  } finally {
    await host.closeAll();
  }
}

async function gatewayCalls(first: number, more: number): Promise<{ before: number; after: number }> {
  const proxy = await startOurs(ANSWERING);
  const client = await agent(proxy.url);
  try {
    for (let i = 0; i < first; i++) await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
    const before = await settledHeap();
    for (let i = 0; i < more; i++) await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
    return { before, after: await settledHeap() };
  } finally {
    await client.close();
    await proxy.close();
  }
}

void (async () => {
  requireFixtures();
  const result = { elicitations: await elicitations(10, 1000), gatewayCalls: await gatewayCalls(10, 1000) };
  process.stdout.write(`${JSON.stringify(result)}\n`);
})().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
