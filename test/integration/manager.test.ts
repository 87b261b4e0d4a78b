/**
 * The server manager with real fixture servers: configuration files in, lifecycle out.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConfigSource, parseMcpJson } from '../../src/mcp/config/config';
import { withoutDuplicates } from '../../src/mcp/config/duplicates';
import type { ServerConnection } from '../../src/mcp/connection/connection';
import { CallError } from '../../src/mcp/errors';
import { ServerManager } from '../../src/mcp/servers/manager';
import { managerDeps } from '../support/manager-deps';
import { ScriptedPrompter } from '../support/scripted-prompter';
import { FIXTURES, MemoryLog, requireFixtures, toolJson } from '../support/servers';
import { waitUntil, waitUntilGone } from '../support/wait';

const folder = mkdtempSync(join(tmpdir(), 'eh-manager-'));
const file = join(folder, '.vscode', 'mcp.json');
const source: ConfigSource = { kind: 'workspace', file, folder };

function mcpJson(servers: Record<string, unknown>, inputs: unknown[] = []): string {
  return JSON.stringify({ inputs, servers }, null, 2);
}

const fixture = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'stdio',
  command: process.execPath,
  args: [join(FIXTURES, 'stdio.js')],
  ...extra,
});

interface Setup {
  manager: ServerManager;
  asked: string[];
  trusted: { value: boolean };
  log: MemoryLog;
}

function setup(autoStart: string[] = [], reconnectDelaysMs?: number[]): Setup {
  requireFixtures();
  const asked: string[] = [];
  const trusted = { value: true };
  const log = new MemoryLog();
  const deps = managerDeps(new ScriptedPrompter(), log, folder, {
    workspaceTrusted: () => trusted.value,
    autoStart: (name) => autoStart.includes(name) || autoStart.includes('*'),
    env: { FROM_HOST: 'host-value' },
    resolveInput: async (input) => {
      asked.push(input.id);
      return `secret-for-${input.id}`;
    },
    ...(reconnectDelaysMs && { reconnectDelaysMs }),
  });
  return { manager: new ServerManager(deps), asked, trusted, log };
}

async function load(manager: ServerManager, text: string): Promise<void> {
  await manager.update([{ source, parsed: parseMcpJson(text, source) }]);
}

describe('server manager', () => {
  it('starts a server on first use and substitutes variables, inputs (asked once) and the env file', async () => {
    const { manager, asked } = setup();
    writeFileSync(join(folder, 'fixture.env'), 'FROM_FILE=file-value\nOVERRIDDEN=file\n');
    await load(
      manager,
      mcpJson(
        {
          tools: fixture({
            env: { TOKEN: '${input:token}', HOME_DIR: '${userHome}', ROOT: '${workspaceFolder}', HOST: '${env:FROM_HOST}', OVERRIDDEN: 'env' },
            envFile: '${workspaceFolder}/fixture.env',
            cwd: '${workspaceFolder}',
          }),
        },
        [{ type: 'promptString', id: 'token', scope: 'user settings', description: 'API token', password: true }],
      ),
    );
    try {
      const [entry] = manager.servers;
      assert.equal(entry.connection, undefined);
      const read = async (name: string): Promise<unknown> => toolJson(await manager.callTool(entry.id, 'read_env', { name })).value;
      assert.equal(await read('TOKEN'), 'secret-for-token');
      assert.equal(await read('HOME_DIR'), '/home/tester');
      assert.equal(await read('ROOT'), folder);
      assert.equal(await read('HOST'), 'host-value');
      assert.equal(await read('FROM_FILE'), 'file-value');
      assert.equal(await read('OVERRIDDEN'), 'env');
      assert.equal(toolJson(await manager.callTool(entry.id, 'read_env', { name: 'X' })).cwd, folder);
      assert.deepEqual(asked, ['token']);
    } finally {
      await manager.stopAll();
    }
  });

  it("a stdio server's environment is the SDK's default one plus its own env, nothing else of ours", async () => {
    const { manager } = setup();
    process.env.EH_NOT_FOR_SERVERS = 'extension-host-only';
    await load(manager, mcpJson({ tools: fixture({ env: { OWN: 'own-value' } }) }));
    try {
      const read = async (name: string): Promise<unknown> => toolJson(await manager.callTool('tools', 'read_env', { name })).value;
      assert.equal(await read('OWN'), 'own-value');
      assert.equal(await read('PATH'), process.env.PATH, 'PATH comes with the default environment');
      assert.equal(await read('EH_NOT_FOR_SERVERS'), null);
    } finally {
      delete process.env.EH_NOT_FOR_SERVERS;
      await manager.stopAll();
    }
  });

  it("an input's value never shows: not in the error, the server's detail, the log or its stderr", async () => {
    const { manager, log } = setup();
    const token = [{ type: 'promptString', id: 'token', description: 'API token', password: true }];
    await load(
      manager,
      mcpJson(
        {
          missing: { type: 'stdio', command: join(folder, 'no-such-dir', '${input:token}'), args: [] },
          talker: fixture({ args: [join(FIXTURES, 'stdio.js'), '--name', 'talker-${input:token}'] }),
        },
        token,
      ),
    );
    try {
      const error = await manager.start('missing').then(
        () => assert.fail('a command that does not exist started'),
        (e: unknown) => e as Error,
      );
      await manager.start('talker');
      await waitUntil('the stderr line naming the server', () => log.lines.some((l) => l.startsWith('stderr ') && l.includes('listening')));
      const shown = [error.message, manager.find('missing')?.connection?.detail ?? '', ...log.lines];
      assert.ok(shown.every((text) => !text.includes('secret-for-token')), shown.join('\n'));
      assert.match(error.message, /\[redacted\]/);
      assert.ok(log.lines.some((l) => l.startsWith('stderr ') && l.includes('talker-[redacted]')), log.lines.join('\n'));
    } finally {
      await manager.stopAll();
    }
  });

  it('a workspace server without a cwd runs in its workspace folder', async () => {
    const { manager } = setup();
    await load(manager, mcpJson({ tools: fixture() }));
    try {
      const [entry] = manager.servers;
      assert.equal(toolJson(await manager.callTool(entry.id, 'read_env', { name: 'X' })).cwd, folder);
    } finally {
      await manager.stopAll();
    }
  });

  it('a variable it cannot resolve is reported on the server, not thrown at the others', async () => {
    const { manager } = setup();
    await load(manager, mcpJson({ bad: fixture({ env: { X: '${input:undefined_id}' } }), good: fixture() }));
    try {
      await assert.rejects(manager.start(manager.find('bad')!.id), (e: unknown) =>
        e instanceof CallError && e.message === '${input:undefined_id} is used but no input with id "undefined_id" is defined in "inputs"');
      assert.match(manager.find('bad')!.failure!, /no input with id "undefined_id"/);
      assert.equal((await manager.start(manager.find('good')!.id)).state, 'running');
    } finally {
      await manager.stopAll();
    }
  });

  it('a broken file is reported with positions and its good servers keep running', async () => {
    const { manager } = setup(['*']);
    const text = '{\n  "servers": {\n    "good": ' + JSON.stringify(fixture()) + ',\n    "bad": { "type": "stdio" }\n  }\n}';
    await load(manager, text);
    try {
      const problems = manager.problems.get(file)!.problems;
      assert.deepEqual(problems.map((p) => [p.message, p.line, p.column]), [['server "bad" needs a "command" (the program to start)', 3, 4]]);
      assert.equal(manager.find('good')!.connection?.state, 'running');
      assert.equal(manager.find('bad'), undefined);
    } finally {
      await manager.stopAll();
    }
  });

  it('auto-starts the servers the setting names', async () => {
    const { manager } = setup(['auto']);
    await load(manager, mcpJson({ auto: fixture(), manual: fixture() }));
    try {
      assert.equal(manager.find('auto')!.connection?.state, 'running');
      assert.equal(manager.find('manual')!.connection, undefined);
    } finally {
      await manager.stopAll();
    }
  });

  it('a changed definition restarts its running server; a removed one stops', async () => {
    const { manager } = setup(['*']);
    await load(manager, mcpJson({ a: fixture({ env: { V: 'one' } }), b: fixture() }));
    try {
      const a = manager.find('a')!;
      assert.equal(toolJson(await manager.callTool(a.id, 'read_env', { name: 'V' })).value, 'one');
      const oldB = manager.find('b')!.connection!;
      await load(manager, mcpJson({ a: fixture({ env: { V: 'two' } }) }));
      assert.equal(oldB.state, 'stopped');
      assert.equal(manager.find('b'), undefined);
      assert.equal(manager.find('a')!.connection?.state, 'running');
      assert.equal(toolJson(await manager.callTool(manager.find('a')!.id, 'read_env', { name: 'V' })).value, 'two');
    } finally {
      await manager.stopAll();
    }
  });

  it('an unchanged definition is left running untouched', async () => {
    const { manager } = setup(['*']);
    const text = mcpJson({ a: fixture() });
    await load(manager, text);
    try {
      const connection = manager.find('a')!.connection;
      await load(manager, text);
      assert.equal(manager.find('a')!.connection, connection);
      assert.equal(connection?.state, 'running');
    } finally {
      await manager.stopAll();
    }
  });

  it('untrusted workspace: its stdio servers do not start and say why; user servers run; trust lets them start', async () => {
    const { manager, trusted } = setup(['*']);
    trusted.value = false;
    const userSource: ConfigSource = { kind: 'user' };
    await manager.update([
      { source, parsed: parseMcpJson(mcpJson({ workspaceServer: fixture() }), source) },
      { source: userSource, parsed: parseMcpJson(mcpJson({ userServer: fixture() }), userSource) },
    ]);
    try {
      const ws = manager.find('workspaceServer')!;
      assert.equal(ws.connection, undefined);
      assert.match(ws.blocked!, /does not start until you trust the workspace/);
      await assert.rejects(manager.start(ws.id), /does not start until you trust the workspace/);
      await assert.rejects(manager.callTool(ws.id, 'echo', {}), /does not start until you trust the workspace/);
      assert.equal(manager.find('userServer')!.connection?.state, 'running');
      trusted.value = true;
      await manager.trustChanged();
      assert.equal(manager.find('workspaceServer')!.blocked, undefined);
      assert.equal(manager.find('workspaceServer')!.connection?.state, 'running');
    } finally {
      await manager.stopAll();
    }
  });

  it('stop and restart', async () => {
    const { manager } = setup(['*']);
    await load(manager, mcpJson({ a: fixture() }));
    try {
      const id = manager.find('a')!.id;
      await manager.stop(id);
      assert.equal(manager.find('a')!.connection?.state, 'stopped');
      const restarted = await manager.restart(id);
      assert.equal(restarted.state, 'running');
      assert.deepEqual(toolJson(await manager.callTool(id, 'echo', { text: 'x' })), { echo: 'x' });
    } finally {
      await manager.stopAll();
    }
  });

  it('counts the calls in flight to every server and says when one starts or ends (the form panel closes when none is left)', async () => {
    const { manager } = setup(['*']);
    await load(manager, mcpJson({ a: fixture(), b: fixture() }));
    try {
      const seen: number[] = [];
      manager.onCallsChanged.add(() => seen.push(manager.callsInFlight));
      const [a, b] = ['a', 'b'].map((name) => manager.find(name)!.id);
      const slow = manager.callTool(a, 'silent_wait', { ms: 300 });
      await manager.callTool(b, 'echo', { text: 'x' });
      await slow;
      assert.equal(manager.callsInFlight, 0);
      assert.deepEqual(seen, [1, 2, 1, 0]);
    } finally {
      await manager.stopAll();
    }
  });

  it('start on an errored HTTP server never leaves a second connection behind: stopAll stops every one it made', async () => {
    // An HTTP server that fails every request: each start ends in error with a reconnection armed.
    const failing = createHttpServer((_req, res) => res.writeHead(500).end('down on purpose'));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const { port } = failing.address() as AddressInfo;
    const { manager } = setup([], [150]);
    await load(manager, mcpJson({ remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }));
    const made = new Set<ServerConnection>();
    manager.onDidChange.add(() => {
      const connection = manager.find('remote')?.connection;
      if (connection) made.add(connection);
    });
    try {
      const id = manager.find('remote')!.id;
      for (let i = 0; i < 3; i++) await assert.rejects(manager.start(id), /answered HTTP 500/);
      await manager.stopAll();
      assert.deepEqual([...made].map((c) => c.state), [...made].map(() => 'stopped'), 'every connection this server ever had is stopped');
    } finally {
      await manager.stopAll();
      await new Promise((resolve) => failing.close(resolve));
    }
  });

  it('a definition replaced while its server starts: the old start ends, and its process does not live on', async () => {
    const { manager, log } = setup();
    await load(manager, mcpJson({ slow: fixture({ args: [join(FIXTURES, 'stdio.js'), '--name', 'slow', '--start-delay', '1500'] }) }));
    try {
      const starting = manager.start(manager.find('slow')!.id).then(() => 'started', (e: unknown) => e);
      const pid = await waitUntil('the slow server to start its process', () => {
        const line = log.lines.find((l) => l.startsWith('stderr fixture slow pid '));
        return line ? Number(/pid (\d+)/.exec(line)![1]) : undefined;
      });
      await load(manager, mcpJson({ slow: fixture({ env: { V: 'two' } }) }));
      const outcome = await starting;
      assert.ok(outcome instanceof CallError, String(outcome));
      await waitUntilGone(pid);
      assert.equal(toolJson(await manager.callTool(manager.find('slow')!.id, 'read_env', { name: 'V' })).value, 'two');
    } finally {
      await manager.stopAll();
    }
  });
});

describe('server manager: the portable files (.mcp.json, ~/.copilot/mcp-config.json) beside mcp.json', () => {
  const dotMcp: ConfigSource = { kind: 'workspace', file: join(folder, '.mcp.json'), folder, format: 'portable' };
  const copilot: ConfigSource = { kind: 'user', file: '/home/tester/.copilot/mcp-config.json', format: 'portable' };

  async function loadAll(manager: ServerManager, texts: ReadonlyArray<readonly [ConfigSource, string]>): Promise<void> {
    await manager.update(withoutDuplicates(texts.map(([s, text]) => ({ source: s, parsed: parseMcpJson(text, s) }))));
  }

  it('runs a .mcp.json server in its folder with ${NAME} from the environment; one defined alike in mcp.json runs once', async () => {
    const { manager, trusted } = setup();
    const portable = { command: process.execPath, args: [join(FIXTURES, 'stdio.js')], env: { KEY: '${FROM_HOST}', FALLBACK: '${UNSET:-used}' } };
    const same = { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--name', 'both'] };
    await loadAll(manager, [
      [source, mcpJson({ both: same })],
      [dotMcp, JSON.stringify({ mcpServers: { portable, both: { type: 'local', command: same.command, args: same.args } } })],
    ]);
    try {
      assert.deepEqual(manager.servers.map((e) => [e.definition.name, e.definition.source.file, e.definition.alsoIn]), [
        ['both', file, [join(folder, '.mcp.json')]],
        ['portable', join(folder, '.mcp.json'), undefined],
      ]);
      const read = async (name: string): Promise<Record<string, unknown>> => toolJson(await manager.callTool(manager.find('portable')!.id, 'read_env', { name }));
      assert.equal((await read('KEY')).value, 'host-value');
      assert.equal((await read('FALLBACK')).value, 'used');
      assert.equal((await read('X')).cwd, folder, 'a workspace file: its stdio server runs in the folder');
      trusted.value = false;
      await manager.trustChanged();
      assert.match(manager.find('portable')!.blocked ?? '', /does not start until you trust the workspace/);
    } finally {
      await manager.stopAll();
    }
  });

  it("the person's own mcp-config.json runs untrusted, and the copy a workspace's .mcp.json makes of it with it", async () => {
    const { manager, trusted } = setup();
    trusted.value = false;
    const server = { type: 'local', command: process.execPath, args: [join(FIXTURES, 'stdio.js')] };
    await loadAll(manager, [
      [dotMcp, JSON.stringify({ mcpServers: { mine: server } })],
      [copilot, JSON.stringify({ mcpServers: { mine: server } })],
    ]);
    try {
      assert.equal(manager.servers.length, 1);
      const entry = manager.servers[0];
      assert.equal(entry.definition.source.file, copilot.file);
      assert.deepEqual(entry.definition.alsoIn, [join(folder, '.mcp.json')]);
      assert.equal(entry.blocked, undefined);
      assert.equal(toolJson(await manager.callTool(entry.id, 'read_env', { name: 'X' })).value, null);
    } finally {
      await manager.stopAll();
    }
  });

  it('an unset ${NAME} without a default stops that server with the name, and the others run', async () => {
    const { manager } = setup();
    await loadAll(manager, [[dotMcp, JSON.stringify({ mcpServers: { needs: { command: process.execPath, args: [join(FIXTURES, 'stdio.js')], env: { K: '${NOT_SET_ANYWHERE}' } }, fine: { command: process.execPath, args: [join(FIXTURES, 'stdio.js')] } } })]]);
    try {
      await assert.rejects(manager.start(manager.find('needs')!.id), /NOT_SET_ANYWHERE is not set in the environment/);
      assert.equal(toolJson(await manager.callTool(manager.find('fine')!.id, 'read_env', { name: 'X' })).value, null);
    } finally {
      await manager.stopAll();
    }
  });
});
