/**
 * The agent hosts setting read and checked (names, addresses, no token in it, ws:// only to
 * this machine), where a token is kept, how a host's state reads in the Agents view, and the
 * entries desktop VS Code publishes for its local agent host, read as untrusted input: the
 * shape and its bounds, owner-only files that are not links, loopback or socket only, stale
 * processes left out.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEndpoint } from '../../src/ahp/endpoint';
import { AhpError, noCommonVersion, refusedRequest, tokenRefused } from '../../src/ahp/errors';
import { describeFailure, failureOf, readAgentHosts, readStoredToken, sameAddress, sameEndpoint, settingEntry, storedToken, tokenKey, tokenProblem } from '../../src/ui/agent-hosts/agent-host-definitions';
import { entriesFolder, readEntry, readLocalAgentHosts, userDataFromGlobalStorage } from '../../src/ui/agent-hosts/local-agent-host';

describe('the agent hosts setting', () => {
  it('reads URL, socket and local hosts; says what is wrong with the others, by name', () => {
    const { hosts, problems } = readAgentHosts({
      laptop: { url: 'wss://laptop.example:8443' },
      here: { url: 'ws://127.0.0.1:8123/' },
      sock: { url: '/run/user/1000/agent-host.sock' },
      'VS Code on this machine': { local: true },
      plain: { url: 'ws://build-box:8123' },
      leaky: { url: 'ws://127.0.0.1:8123/?tkn=s3cr3tTok' },
      both: { url: 'wss://x', local: true },
      '<b>bad</b>': { url: 'wss://x' },
      nothing: 'wss://x',
    });
    assert.deepEqual(
      hosts.map((h) => [h.name, h.kind === 'url' ? h.endpoint.display : 'local']),
      [
        ['laptop', 'wss://laptop.example:8443'],
        ['here', 'ws://127.0.0.1:8123'],
        ['sock', '/run/user/1000/agent-host.sock'],
        ['VS Code on this machine', 'local'],
      ],
    );
    assert.equal(problems.length, 5);
    assert.match(problems[0], /\["plain"\]\.url: ws:\/\/ is unencrypted and only allowed to this machine/);
    assert.match(problems[1], /\["leaky"\]\.url carries a connection token/);
    assert.ok(!problems.join('\n').includes('s3cr3tTok'), 'the token is not repeated in what is logged');
    assert.match(problems[2], /\["both"\] must have either "url"/);
    assert.match(problems[3], /A name of letters/);
    assert.match(problems[4], /\["nothing"\] must be/);
    assert.deepEqual(readAgentHosts(undefined), { hosts: [], problems: [] });
    assert.match(readAgentHosts([]).problems[0], /must be an object/);
  });

  it('reads at most 20 hosts', () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`h${i}`, { url: `wss://h${i}.example` }]));
    const { hosts, problems } = readAgentHosts(many);
    assert.equal(hosts.length, 20);
    assert.deepEqual(problems, ['elicitationHost.agentHosts: only the first 20 hosts are read']);
  });

  it('writes back what it reads, never a token; keeps a token by the address, so a renamed host keeps it', () => {
    const { endpoint } = parseEndpoint('ws://127.0.0.1:8123/?tkn=abc');
    assert.deepEqual(settingEntry({ name: 'x', kind: 'url', endpoint }), { url: 'ws://127.0.0.1:8123/' });
    assert.deepEqual(settingEntry({ name: 'x', kind: 'local' }), { local: true });
    assert.equal(tokenKey(endpoint), 'elicitationHost.agentHostToken:ws://127.0.0.1:8123/');
    assert.equal(tokenKey(parseEndpoint('/tmp/a.sock').endpoint), 'elicitationHost.agentHostToken:socket:/tmp/a.sock');
    assert.equal(tokenProblem(''), undefined, 'a host started without a token');
    assert.equal(tokenProblem('a1-B_~'), undefined);
    assert.match(tokenProblem('has space') ?? '', /no spaces or control characters/);
    assert.match(tokenProblem('x'.repeat(1025)) ?? '', /1,024/);
  });

  it('keeps a token wrapped (an empty one too) and reads only what it wrote; tells addresses apart; reads an error of the other bundle by its shape', () => {
    assert.equal(readStoredToken(storedToken('abc')), 'abc');
    assert.equal(readStoredToken(storedToken('')), '', 'a host without a token');
    assert.equal(readStoredToken('not json'), undefined);
    assert.equal(readStoredToken('{"token":1}'), undefined);
    const a = parseEndpoint('ws://127.0.0.1:8123?tkn=x').endpoint;
    assert.ok(sameEndpoint(a, parseEndpoint('ws://127.0.0.1:8123/').endpoint), 'the same URL, the token out');
    assert.ok(!sameEndpoint(a, parseEndpoint('ws://127.0.0.1:8124').endpoint));
    assert.ok(sameAddress({ name: 'x', kind: 'local' }, { name: 'y', kind: 'local' }));
    assert.ok(!sameAddress({ name: 'x', kind: 'local' }, { name: 'x', kind: 'url', endpoint: a }));
    assert.deepEqual(failureOf(tokenRefused('h', 403)), { kind: 'token-refused', message: tokenRefused('h', 403).message });
    assert.deepEqual(failureOf({ kind: 'closed', message: 'gone' }), { kind: 'closed', message: 'gone' });
    assert.deepEqual(failureOf(new Error('ECONNRESET')), { kind: 'unreachable', message: 'ECONNRESET' });
  });

  it('words each failure for the view: the token refused, both sides\' versions, unreachable', () => {
    assert.equal(describeFailure(tokenRefused('ws://127.0.0.1:1', 403), 'ws://127.0.0.1:1'), 'the host refused the token');
    assert.equal(describeFailure(noCommonVersion('h', ['1.0.0', '1.1.0'], ['0.9.0']), 'h'), 'no common protocol version: the host speaks AHP 1.0.0, 1.1.0, we speak AHP 0.9.0');
    assert.equal(describeFailure(new AhpError('unreachable', 'cannot reach the agent host at h: ECONNREFUSED'), 'h'), 'unreachable');
    assert.equal(describeFailure(refusedRequest(-32603, 'listSessions failed'), 'h'), 'refused a request: listSessions failed');
  });
});

describe("desktop VS Code's local agent host entries", () => {
  const ENTRY = {
    schemaVersion: 2,
    type: 'editor',
    pid: process.pid,
    instanceId: 'Abc_123-x',
    protocolVersion: '0.9.0',
    connectionToken: 'tok_EN-123',
    endpoint: { type: 'socket', path: '/tmp/vscode-ah-0123456789ab/Abc_123-x.sock' },
    quality: 'stable',
  };
  const uid = process.getuid?.();
  let userData: string;
  let folder: string;
  const write = (name: string, value: unknown, mode = 0o600): string => {
    const file = join(folder, name);
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value), { mode });
    chmodSync(file, mode);
    return file;
  };
  const hex = (n: number): string => n.toString(16).padStart(64, '0');

  beforeEach(() => {
    userData = mkdtempSync(join(tmpdir(), 'eh-userdata-'));
    folder = entriesFolder(userData);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  });
  afterEach(() => rmSync(userData, { recursive: true, force: true }));

  it("finds the userData folder from the extension's global storage", () => {
    assert.equal(userDataFromGlobalStorage('/home/me/.config/Code/User/globalStorage/elicitation-host.elicitation-host'), '/home/me/.config/Code');
    assert.equal(userDataFromGlobalStorage('/somewhere/else/entirely'), undefined);
  });

  it('reads a socket entry and a loopback TCP one as VS Code writes them, editors first', async () => {
    write(`${hex(1)}.json`, { ...ENTRY, type: 'standalone', pid: 4242, endpoint: { type: 'tcp', host: '127.0.0.1', port: 8123 } });
    write(`${hex(2)}.json`, ENTRY);
    const { hosts, problems } = await readLocalAgentHosts(userData, { uid, alive: () => true });
    assert.deepEqual(problems, []);
    assert.deepEqual(
      hosts.map((h) => [h.label, h.endpoint.display, h.token, h.description]),
      [
        ['VS Code on this machine', '/tmp/vscode-ah-0123456789ab/Abc_123-x.sock', 'tok_EN-123', `process ${process.pid} · AHP 0.9.0`],
        ['Agent host on this machine (code agent host)', 'ws://127.0.0.1:8123', 'tok_EN-123', 'process 4242 · AHP 0.9.0'],
      ],
    );
  });

  it('refuses a host off this machine, bad shapes and over-long fields, naming the field', () => {
    const refused = (change: Record<string, unknown>): string => String(readEntry({ ...ENTRY, ...change }));
    assert.match(refused({ endpoint: { type: 'tcp', host: '10.0.0.5', port: 8123 } }), /^endpoint: ws:\/\/ is unencrypted and only allowed to this machine/);
    assert.match(refused({ endpoint: { type: 'tcp', host: '127.0.0.1', port: 70000 } }), /^endpoint.port/);
    assert.match(refused({ endpoint: { type: 'socket', path: 'relative.sock' } }), /^endpoint: .*neither/);
    assert.match(refused({ endpoint: { type: 'socket', path: `/${'a'.repeat(1100)}` } }), /^endpoint.path/);
    assert.match(refused({ endpoint: { type: 'pipe' } }), /^endpoint.type/);
    assert.match(refused({ schemaVersion: 3 }), /^schemaVersion/);
    assert.match(refused({ type: 'evil' }), /^type/);
    assert.match(refused({ pid: -1 }), /^pid/);
    assert.match(refused({ instanceId: 'a/../b' }), /^instanceId/);
    assert.match(refused({ protocolVersion: 'x'.repeat(40) }), /^protocolVersion/);
    assert.match(refused({ connectionToken: 'a b' }), /^connectionToken/);
    assert.match(refused({ connectionToken: 'x'.repeat(2000) }), /^connectionToken/);
    assert.equal(readEntry([]), 'not a JSON object');
  });

  it('reads only owner-only files that are not links, small ones, of a live process; a missing folder is no host', async () => {
    assert.ok(uid !== undefined, 'owners and modes are POSIX checks: run the unit tests on Linux or macOS (on Windows VS Code keeps the folder private with ACLs)');
    const good = write(`${hex(1)}.json`, ENTRY);
    write(`${hex(2)}.json`, { ...ENTRY, instanceId: 'open' }, 0o644);
    write(`${hex(3)}.json`, `${JSON.stringify(ENTRY)}${' '.repeat(9000)}`);
    write(`${hex(4)}.json`, '{not json');
    write(`${hex(5)}.json`, { ...ENTRY, pid: 999_999_999 });
    symlinkSync(good, join(folder, `${hex(6)}.json`));
    write('notes.txt', 'ignored: not an entry name');
    const { hosts, problems } = await readLocalAgentHosts(userData, { uid });
    assert.deepEqual(hosts.map((h) => h.token), ['tok_EN-123'], 'the one good entry; the stale process left out silently');
    assert.deepEqual(
      problems.map((p) => p.replace(`${folder}/`, '')),
      [`${hex(2)}.json: can be read or written by others (mode 644)`, `${hex(3)}.json: is ${JSON.stringify(ENTRY).length + 9000} bytes, over 8192`, `${hex(4)}.json: not JSON`, `${hex(6)}.json: is a link`],
    );
    assert.ok(!problems.join('\n').includes('tok_EN'), 'no token in what is logged');
    chmodSync(folder, 0o755);
    assert.match((await readLocalAgentHosts(userData, { uid })).problems[0], /can be read or written by others \(mode 755\): its entries are not read/);
    rmSync(userData, { recursive: true, force: true });
    assert.deepEqual(await readLocalAgentHosts(userData, { uid }), { hosts: [], problems: [] });
  });
});
