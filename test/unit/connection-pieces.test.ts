/**
 * The connection's pieces on their own: error readings, declared capabilities, the
 * environment and working directory of stdio servers, request keys of the wire tap, and
 * the rounds loop against its small port.
 */
import { strict as assert } from 'node:assert';
import { CLIENT_CAPABILITIES_META_KEY, declaredCapabilities, withCallCapabilities } from '../../src/mcp/connection/capabilities';
import type { ServerDefinition } from '../../src/mcp/config/config';
import { CallError, describeLoss, httpStatusOf, isConnectionClosed, networkCodeOf, requiredLinksOf, toRpcError } from '../../src/mcp/errors';
import { runRounds, type RoundsPort } from '../../src/mcp/connection/rounds';
import { isHttp, stdioEnvironment, workingDirectory } from '../../src/mcp/connection/transports';
import { requestKey } from '../../src/mcp/connection/wire-tap';
import { DEFAULT_SETTINGS } from '../support/servers';

describe('connection pieces: errors', () => {
  it('reads network codes and HTTP statuses down the cause chain, by code, not by message', () => {
    const wrapped = Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }) });
    assert.equal(networkCodeOf(wrapped), 'ECONNREFUSED');
    assert.equal(networkCodeOf(new Error('ECONNREFUSED in words only')), undefined);
    assert.equal(httpStatusOf(Object.assign(new Error('x'), { cause: { status: 503 } })), 503);
    assert.equal(describeLoss(wrapped), 'cannot be reached: ECONNREFUSED');
    assert.equal(describeLoss(Object.assign(new Error('x'), { status: 502 })), 'HTTP 502');
    assert.equal(isConnectionClosed(Object.assign(new Error('closed'), { code: 'CONNECTION_CLOSED' })), true);
  });

  it('recognises -32042 with its links, and keeps a code on the way to the server', () => {
    const required = requiredLinksOf(Object.assign(new Error('visit'), { code: -32042, data: { elicitations: [{ url: 'https://x.test' }] } }));
    assert.deepEqual(required, { message: 'visit', links: [{ url: 'https://x.test' }] });
    assert.equal(requiredLinksOf(new CallError('no', -32602)), undefined);
    assert.equal(toRpcError(new CallError('bad', -32602)).code, -32602);
    assert.equal(toRpcError(new Error('plain')).code, -32603);
  });
});

describe('connection pieces: capabilities', () => {
  it('declares sampling at initialize only for a host that relays it; per call in the 2026 era', () => {
    assert.equal(declaredCapabilities(DEFAULT_SETTINGS, false).sampling, undefined);
    const relayed = declaredCapabilities({ ...DEFAULT_SETTINGS, urlMode: true }, true);
    assert.deepEqual(relayed.elicitation, { form: {}, url: {} });
    assert.deepEqual(relayed.sampling, {});
    const without = withCallCapabilities({ name: 't', _meta: { progressToken: 1 } }, relayed, false);
    const meta = without._meta as Record<string, Record<string, unknown>>;
    assert.equal(meta.progressToken as unknown, 1);
    assert.equal(meta[CLIENT_CAPABILITIES_META_KEY].sampling, undefined);
    const withSampling = withCallCapabilities({ name: 't' }, declaredCapabilities(DEFAULT_SETTINGS, false), true);
    assert.deepEqual((withSampling._meta as Record<string, Record<string, unknown>>)[CLIENT_CAPABILITIES_META_KEY].sampling, {});
  });
});

describe('connection pieces: transports', () => {
  const definition = (config: Record<string, unknown>, source: ServerDefinition['source'] = { kind: 'user' }): ServerDefinition =>
    ({ name: 's', source, config: { type: 'stdio', command: 'node', args: [], env: {}, ...config } }) as unknown as ServerDefinition;

  it("a stdio server's env is its own, null removing a variable; it runs in its workspace folder", () => {
    const d = definition({ env: { A: 'a', GONE: null } }, { kind: 'workspace', file: '/w/.vscode/mcp.json', folder: '/w' } as ServerDefinition['source']);
    assert.deepEqual(stdioEnvironment(d.config as never), { A: 'a', GONE: undefined });
    assert.equal(workingDirectory(d), '/w');
    assert.equal(workingDirectory(definition({ cwd: '/elsewhere' })), '/elsewhere');
    assert.equal(workingDirectory(definition({})), undefined);
    assert.equal(isHttp(d.config), false);
  });
});

describe('connection pieces: wire tap', () => {
  it('keys a request by what it asks, whatever its _meta and key order', () => {
    assert.equal(requestKey('tools/call', { name: 'a', arguments: { x: 1, y: 2 }, _meta: { progressToken: 7 } }), requestKey('tools/call', { arguments: { y: 2, x: 1 }, name: 'a' }));
    assert.notEqual(requestKey('tools/call', { name: 'a' }), requestKey('tools/call', { name: 'b' }));
  });
});

describe('connection pieces: rounds', () => {
  function port(results: unknown[], overrides: Partial<RoundsPort> = {}): { port: RoundsPort; sent: Array<Record<string, unknown>>; progress: string[] } {
    const sent: Array<Record<string, unknown>> = [];
    const progress: string[] = [];
    return {
      sent,
      progress,
      port: {
        server: 'srv',
        label: 'tool',
        maxRounds: 3,
        signal: new AbortController().signal,
        send: async (params) => (sent.push(params), results.shift()),
        elicit: async () => ({ action: 'accept', content: { ok: true } }),
        roots: () => [],
        waitForBrowser: async () => undefined,
        completion: async () => undefined,
        progress: (p) => progress.push(p.message ?? ''),
        log: () => undefined,
        ...overrides,
      },
    };
  }
  const asking = {
    resultType: 'input_required',
    inputRequests: { sure: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } },
    requestState: 'st-1',
  };

  it('answers a round and retries with the answers and the state', async () => {
    const p = port([asking, { content: [{ type: 'text', text: 'done' }] }]);
    assert.deepEqual(await runRounds({ name: 'tool' }, p.port), { content: [{ type: 'text', text: 'done' }] });
    assert.equal(p.sent.length, 2);
    assert.equal(p.sent[1].requestState, 'st-1');
    assert.deepEqual(p.sent[1].inputResponses, { sure: { action: 'accept', content: { ok: true } } });
    assert.ok(p.progress.some((m) => m.includes('round 1')));
  });

  it('stops at the round limit with a message naming the setting', async () => {
    const p = port([asking, asking, asking, asking, asking]);
    await assert.rejects(runRounds({ name: 'tool' }, p.port), /limit of 3 rounds/);
  });

  it('a sampling request without a sampler ends the call with -32021', async () => {
    const sampling = { resultType: 'input_required', inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } }, requestState: 'x' };
    const p = port([sampling]);
    await assert.rejects(runRounds({ name: 'tool' }, p.port), (e: unknown) => e instanceof CallError && e.code === -32021);
  });
});
