/**
 * `elicitation-host serve`: a plain SDK client through the headless gateway to a fixture
 * server, the questions answered the way `call` answers them, and nothing secret printed.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type CallToolResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createOutput } from '../../src/cli/output';
import { parseServeArgs, type ServeOptions, ServeUsageError } from '../../src/cli/serve-args';
import { type RunningServe, startServe } from '../../src/cli/serve-main';
import { CLI, finished, requireCli } from '../support/cli-run';
import { FIXTURES, REPO, requireFixtures, toolJson } from '../support/servers';

const TOKEN = 'serve-test-token-42';

describe('gateway: elicitation-host serve', function () {
  this.timeout(30_000);
  let running: RunningServe | undefined;
  let client: Client | undefined;
  let printed: string[];
  before(() => requireFixtures());
  beforeEach(() => (printed = []));
  afterEach(async () => {
    await client?.close();
    await running?.stop();
    client = undefined;
    running = undefined;
  });

  async function serve(args: string[]): Promise<Client> {
    const options = parseServeArgs([...args, '--json', '--', process.execPath, join(FIXTURES, 'stdio.js'), '--name', 'kitchen']) as ServeOptions;
    running = await startServe(options, {
      version: '0.0.0-test',
      env: { ELICITATION_HOST_MCP_TOKEN: TOKEN },
      out: createOutput(true, (text) => printed.push(text) > 0, (text) => printed.push(text) > 0),
    });
    const serving = JSON.parse(printed[0]) as { type: string; url: string; server: string };
    assert.equal(serving.type, 'serving');
    assert.equal(serving.server, 'stdio');
    client = new Client({ name: 'ci-agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    return client;
  }

  const lines = (): Array<Record<string, unknown>> => printed.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('--accept-defaults answers the question with its defaults and prints what was asked and answered', async () => {
    const agent = await serve(['--accept-defaults']);
    const result = toolJson((await agent.callTool({ name: 'confirm_action', arguments: { action: 'ship it' } })) as CallToolResult);
    assert.deepEqual(result, { action: 'accept', content: { confirm: false } });
    const kinds = lines().map((l) => l.type);
    assert.deepEqual(kinds, ['serving', 'elicitation', 'answer']);
    assert.equal(lines()[1].server, 'stdio');
    assert.ok(!printed.join('').includes(TOKEN), 'the token is never printed');
    assert.equal(running!.verdict.exitCode, 0);
  });

  it('--answers answers from the file, in order', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'eh-serve-')), 'answers.json');
    writeFileSync(file, JSON.stringify([{ action: 'accept', content: { party_size: 3, date: '2026-05-01' } }, { action: 'decline' }]));
    const agent = await serve(['--answers', file]);
    assert.deepEqual(toolJson((await agent.callTool({ name: 'book_restaurant', arguments: {} })) as CallToolResult), {
      action: 'accept',
      content: { party_size: 3, date: '2026-05-01', dietary: 'none' },
    });
    assert.deepEqual(toolJson((await agent.callTool({ name: 'clear_completed', arguments: {} })) as CallToolResult), { action: 'decline', removed: 0 });
  });

  it('--decline declines, and a wrong token is still refused', async () => {
    const agent = await serve(['--decline']);
    assert.equal(toolJson((await agent.callTool({ name: 'confirm_action', arguments: {} })) as CallToolResult).action, 'decline');
    const url = (lines()[0] as { url: string }).url;
    const stranger = new Client({ name: 'stranger', version: '1' });
    await assert.rejects(stranger.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer nope' } } })));
  });

  it('refuses to start without a token', async () => {
    const options = parseServeArgs(['--decline', 'http://127.0.0.1:9/mcp']) as ServeOptions;
    await assert.rejects(startServe(options, { version: '0.0.0-test', env: {} }), ServeUsageError);
  });

  it('serves as the version it is given; the built runner gives the package\'s, which the build put in', async () => {
    const agent = await serve(['--decline']);
    assert.equal(agent.getServerVersion()?.version, '0.0.0-test');
    requireCli();
    const child = spawn(process.execPath, [CLI, 'serve', '--json', '--decline', '--', process.execPath, join(FIXTURES, 'stdio.js')], {
      env: { ...process.env, ELICITATION_HOST_MCP_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = finished(child);
    try {
      const serving = await new Promise<{ url: string }>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('\n')) resolve(JSON.parse(text.slice(0, text.indexOf('\n'))) as { url: string });
        });
        void ended.then((run) => reject(new Error(`serve ended (${run.code}) before it served: ${run.stderr}`)));
      });
      const built = new Client({ name: 'ci-agent', version: '1' });
      await built.connect(new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      assert.equal(built.getServerVersion()?.version, (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
      await built.close();
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal((await ended).code, 0, 'stops on SIGTERM with the run\'s verdict');
  });
});
