/**
 * The agent host connection (src/ahp/client.ts, rpc.ts) against the fixture host: version
 * negotiation (a match, 1.x, none in common), a refused token, an unreachable host, a Unix
 * socket, reconnecting after the socket drops in the middle of a question (on 0.x with one
 * watermark, on 1.x with a cursor per channel, and afresh when the host forgot us): no
 * question lost, none shown twice, an answer given while offline delivered; hostile text
 * stays text, oversized questions are refused naming the limit, broken messages are dropped
 * and logged while the connection lives on, and the host's own requests are refused. A
 * ws:// name that resolves to another machine (DNS, /etc/hosts: a resolver of the test's,
 * answering this machine's non-loopback address, where a listener counts every byte) is
 * refused before anything is sent, the token included.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type LookupFunction } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AhpError } from '../../src/ahp/errors';
import { connectChecked } from '../../src/ahp/loopback-connection';
import { RpcSocket } from '../../src/ahp/rpc';
import type { Outcome } from '../../src/elicitation/broker';
import type { InputRequest } from '../../src/elicitation/request';
import { FixtureHost } from '../fixtures/ahp/fixture-host';
import { AhpRig } from '../support/ahp-harness';
import { accept, submitted } from '../support/scripted-prompter';
import { waitUntil } from '../support/wait';

const QUESTION = { id: 'name', kind: 'text', message: 'Name?', required: true };

function completion(host: FixtureHost, requestId: string) {
  return host.waitForClientAction((e) => e.action.type.endsWith('/inputCompleted') && e.action.requestId === requestId);
}

async function refusal(promise: Promise<unknown>): Promise<AhpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AhpError, `expected an AhpError, got ${String(error)}`);
    return error;
  }
  assert.fail('the connection should have been refused');
}

describe('AHP connection', function () {
  this.timeout(30_000);
  let host: FixtureHost | undefined;
  let rig: AhpRig | undefined;

  afterEach(async () => {
    rig?.close();
    rig = undefined;
    await host?.stop();
    host = undefined;
  });

  describe('version negotiation', () => {
    for (const [hostVersions, expected] of [
      [['0.9.0'], '0.9.0'],
      [['1.2.0'], '1.0.0'],
      [['1.0.0', '0.9.0'], '1.0.0'],
    ] as const) {
      it(`a host speaking ${hostVersions.join(', ')} is spoken to in ${expected}`, async () => {
        host = await FixtureHost.start({ versions: hostVersions });
        const { chat } = host.addSession();
        host.requestInput(chat, { id: 'v', questions: [QUESTION] });
        rig = new AhpRig([accept({ name: 'x' })]);
        const inbox = await rig.open(host.url, host.token);
        assert.equal(inbox.protocolVersion, expected);
        await completion(host, 'v');
      });
    }

    it('no version in common: refused, naming both sides\' versions', async () => {
      host = await FixtureHost.start({ versions: ['0.10.0'] });
      rig = new AhpRig();
      const error = await refusal(rig.open(host.url, host.token));
      assert.equal(error.kind, 'no-common-version');
      assert.match(error.message, /speaks AHP \^0\.10\.0; Elicitation Host speaks AHP 1\.0\.0, 0\.9\.0: no version in common/);
    });
  });

  it('a wrong token is told apart (HTTP 403), and the token is not in the message', async () => {
    host = await FixtureHost.start({ token: 'right-token' });
    rig = new AhpRig();
    const error = await refusal(rig.open(host.url, 'wrong-token-123'));
    assert.equal(error.kind, 'token-refused');
    assert.match(error.message, /refused the connection token \(HTTP 403\)/);
    assert.doesNotMatch(error.message, /wrong-token-123|right-token/);
    assert.equal((await refusal(rig.open(host.url, undefined))).kind, 'token-refused');
  });

  it('nothing listening: unreachable', async () => {
    host = await FixtureHost.start();
    const url = host.url;
    await host.stop();
    host = undefined;
    rig = new AhpRig();
    const error = await refusal(rig.open(url, 'x'));
    assert.equal(error.kind, 'unreachable');
    assert.match(error.message, /ECONNREFUSED/);
  });

  describe('ws:// reaches this machine only, whatever a name resolves to', () => {
    /** A listener on this machine's non-loopback address: every connection it gets, and every byte. */
    let elsewhere: { readonly address: string; readonly port: number; readonly connections: Array<{ readonly remotePort: number; bytes: number; readonly closed: Promise<void> }>; readonly next: () => Promise<number>; close(): Promise<void> } | undefined;

    beforeEach(async () => {
      const address = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      assert.ok(address, 'this test needs a network interface with a non-loopback IPv4 address (a container\'s eth0 will do): there is none here');
      const connections: NonNullable<typeof elsewhere>['connections'] = [];
      const waiting: Array<(remotePort: number) => void> = [];
      const server = createServer((socket) => {
        const seen = { remotePort: socket.remotePort ?? 0, bytes: 0, closed: new Promise<void>((resolve) => socket.once('close', () => resolve())) };
        socket.on('data', (chunk) => (seen.bytes += chunk.length));
        socket.on('error', () => undefined);
        connections.push(seen);
        waiting.shift()?.(seen.remotePort);
      });
      await new Promise<void>((resolve) => server.listen(0, address, resolve));
      elsewhere = {
        address,
        port: (server.address() as AddressInfo).port,
        connections,
        next: () => new Promise((resolve) => waiting.push(resolve)),
        close: () => new Promise((resolve) => server.close(() => resolve())),
      };
    });
    afterEach(async () => {
      await elsewhere?.close();
      elsewhere = undefined;
    });

    /** A resolver that answers `addresses` for every name, as DNS or an /etc/hosts line might. */
    function answering(...addresses: string[]): LookupFunction {
      return (_hostname, options, callback) => {
        const all = addresses.map((address) => ({ address, family: 4 }));
        if (options.all) (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        else callback(null, all[0].address, 4);
      };
    }

    /** No connection reached the listener: the next one it gets is a probe of the test's own. */
    async function nothingReached(): Promise<void> {
      const first = elsewhere!.next();
      const probe = connect(elsewhere!.port, elsewhere!.address);
      await new Promise<void>((resolve) => probe.once('connect', () => resolve()));
      assert.equal(await first, probe.localPort, 'the first connection the listener got is the probe');
      probe.destroy();
      assert.equal(elsewhere!.connections.length, 1);
    }

    for (const name of ['agent-host.localhost', 'localhost']) {
      it(`${name} resolving to another machine: refused before anything is sent, the token included`, async () => {
        const { address, port } = elsewhere!;
        rig = new AhpRig();
        const error = await refusal(rig.open(`ws://${name}:${port}`, 'the-secret-token', { resolve: answering(address) }));
        assert.equal(error.kind, 'unreachable');
        assert.match(error.message, new RegExp(`${name.replace(/\./g, '\\.')} resolves to ${address.replace(/\./g, '\\.')}, not to this machine: ws:// is unencrypted and goes only to a loopback address`));
        assert.doesNotMatch(error.message, /the-secret-token/);
        await nothingReached();
      });
    }

    it('a name that resolves to this machine and another: only the loopback answer is connected to', async () => {
      host = await FixtureHost.start();
      const port = new URL(host.url).port;
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'both', questions: [QUESTION] });
      rig = new AhpRig([accept({ name: 'here' })]);
      await rig.open(`ws://agent-host.localhost:${port}`, host.token, { resolve: answering(elsewhere!.address, '127.0.0.1') });
      assert.equal((await completion(host, 'both')).action.response, 'accept');
      await nothingReached();
    });

    it('a connection that reached another address (a lookup answering past the check) is closed before the upgrade is written', async () => {
      const { address, port } = elsewhere!;
      const reached = elsewhere!.next();
      const lying: LookupFunction = (_hostname, options, callback) => (options.all ? (callback as unknown as (e: null, a: unknown[]) => void)(null, [{ address, family: 4 }]) : callback(null, address, 4));
      const handlers = { notification: () => undefined, closed: () => undefined };
      const log = { info: () => undefined, warn: () => undefined };
      const error = await refusal(RpcSocket.open(`ws://localhost:${port}/?tkn=the-secret-token`, `ws://localhost:${port}`, handlers, log, 5_000, connectChecked(lying)));
      assert.equal(error.kind, 'unreachable');
      assert.match(error.message, new RegExp(`localhost connected to ${address.replace(/\./g, '\\.')}, not to this machine: .*nothing was sent`));
      await reached;
      const [seen] = elsewhere!.connections;
      await seen.closed;
      assert.equal(seen.bytes, 0, 'not a byte of the upgrade (nor the token in it) reached the other address');
    });
  });

  it('a Unix socket with the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ahp-'));
    try {
      host = await FixtureHost.start({ socketPath: join(dir, 'agent-host.sock') });
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 's', questions: [QUESTION] });
      rig = new AhpRig([accept({ name: 'over a socket' })]);
      await rig.open(host.url, host.token);
      assert.equal((await completion(host, 's')).action.response, 'accept');
    } finally {
      await host?.stop();
      host = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('reconnecting after the socket drops mid-question', () => {
    for (const [label, versions, forget, how] of [
      ['0.9.0, one watermark', ['0.9.0'], false, 'watermark replay'],
      ['1.x, a cursor per channel', ['1.0.0'], false, 'per-channel replay'],
      ['a host that forgot us: afresh', ['0.9.0'], true, 'refused'],
    ] as const) {
      it(`${label}: nothing lost, nothing asked twice, an answer given offline delivered`, async () => {
        host = await FixtureHost.start({ versions });
        const { chat } = host.addSession();
        host.requestInput(chat, { id: 'before', questions: [QUESTION] });
        const shown: InputRequest[] = [];
        let answerBefore: ((outcome: Outcome) => void) | undefined;
        rig = new AhpRig([], (request) => {
          shown.push(request);
          if (request.questions[0]?.id === 'name' && shown.length === 1) return new Promise<Outcome>((resolve) => (answerBefore = resolve));
          return { action: 'accept', answers: submitted(request, { [request.questions[0].id]: `answer ${shown.length}` }) };
        });
        await rig.open(host.url, host.token, { reconnectDelaysMs: [400, 400, 400, 400, 400] });
        await waitUntil('the first question', () => answerBefore);
        if (forget) host.forgetClients();
        host.dropConnections();
        await waitUntil('the inbox to notice', () => rig!.told.statuses.includes('reconnecting'));
        // While we are away: the person answers, another client drafts, the agent asks again.
        answerBefore!({ action: 'accept', answers: submitted(shown[0], { name: 'typed offline' }) });
        host.requestInput(chat, { id: 'during', questions: [{ ...QUESTION, id: 'other' }] });
        const delivered = await completion(host, 'before');
        assert.deepEqual(delivered.action.answers, { name: { state: 'submitted', value: { kind: 'text', value: 'typed offline' } } });
        const during = await completion(host, 'during');
        assert.equal(during.action.response, 'accept');
        assert.deepEqual(shown.map((r) => r.questions[0].id), ['name', 'other'], 'each question asked once');
        assert.equal(host.clientActions.filter((e) => e.action.type === 'chat/inputCompleted' && e.action.requestId === 'before').length, 1);
        assert.deepEqual(host.rejections, []);
        assert.equal(rig.told.statuses.at(-1), 'connected');
        assert.deepEqual(host.reconnects, [how]);
      });
    }

    it('further behind than the host keeps: fresh snapshots, the open question still asked once', async () => {
      host = await FixtureHost.start({ replayKept: 2 });
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'kept', questions: [QUESTION] });
      let answer: ((outcome: Outcome) => void) | undefined;
      rig = new AhpRig([(request) => new Promise<Outcome>((resolve) => (answer = (o) => resolve(o.action === 'accept' ? { action: 'accept', answers: submitted(request, { name: 'late' }) } : o)))]);
      await rig.open(host.url, host.token, { reconnectDelaysMs: [300, 300, 300] });
      await waitUntil('the question', () => answer);
      host.dropConnections();
      await waitUntil('the inbox to notice', () => rig!.told.statuses.includes('reconnecting'));
      for (let i = 0; i < 5; i++) host.answerAsOtherClient(chat, 'kept', 'name', { state: 'draft', value: { kind: 'text', value: `draft ${i}` } });
      await waitUntil('reconnected', () => rig!.told.statuses.at(-1) === 'connected');
      assert.deepEqual(host.reconnects, ['snapshot']);
      // What another client drafted meanwhile came with the snapshot into our open prompt.
      await waitUntil('the missed draft', () => JSON.stringify(rig!.store.state.requests[0]?.answers.name) === JSON.stringify({ state: 'draft', value: { kind: 'text', value: 'draft 4' } }));
      answer!({ action: 'accept' });
      assert.equal((await completion(host, 'kept')).action.response, 'accept');
      assert.equal(rig.prompter.asked.length, 1);
      assert.deepEqual(host.rejections, []);
    });

    it('a host that stops answering pings is dropped and reconnected; the open question stays one prompt', async () => {
      host = await FixtureHost.start();
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'p', questions: [QUESTION] });
      let answer: ((outcome: Outcome) => void) | undefined;
      rig = new AhpRig([(request) => new Promise<Outcome>((resolve) => (answer = () => resolve({ action: 'accept', answers: submitted(request, { name: 'after the ping' }) })))]);
      await rig.open(host.url, host.token, { pingIntervalMs: 100, reconnectDelaysMs: [50, 50, 50, 50, 50, 50, 50, 50] });
      await waitUntil('the question', () => answer);
      host.silentPings = true;
      await waitUntil('the inbox to drop the silent host', () => rig!.told.statuses.includes('reconnecting'));
      assert.match(rig.warnings.join('\n'), /did not answer a ping; reconnecting/);
      host.silentPings = false;
      await waitUntil('reconnected', () => rig!.told.statuses.at(-1) === 'connected');
      answer!({ action: 'accept' });
      assert.equal((await completion(host, 'p')).action.response, 'accept');
      assert.equal(rig.prompter.asked.length, 1);
    });

    it('closing the inbox closes its prompts, saying it was closed (not lost)', async () => {
      host = await FixtureHost.start();
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'c', questions: [QUESTION] });
      let closed: unknown;
      rig = new AhpRig([(_request, options) => new Promise<Outcome>((resolve) => options.signal.addEventListener('abort', () => ((closed = options.signal.reason), resolve({ action: 'cancel' })), { once: true }))]);
      const inbox = await rig.open(host.url, host.token);
      await waitUntil('the question', () => rig!.prompter.asked.length === 1);
      inbox.close();
      await waitUntil('the prompt to close', () => closed);
      assert.match(String((closed as Error).message), /the connection to the agent host was closed$/);
      await waitUntil('the host to see us go', () => host!.clientCount === 0);
      assert.ok(!host.clientActions.some((e) => e.action.type.endsWith('/inputCompleted')), 'closing answers nothing');
    });

    it('a host gone for good: after the last attempt every prompt is withdrawn', async () => {
      host = await FixtureHost.start();
      const { chat } = host.addSession();
      host.requestInput(chat, { id: 'gone', questions: [QUESTION] });
      let closed: unknown;
      rig = new AhpRig([(_request, options) => new Promise<Outcome>((resolve) => options.signal.addEventListener('abort', () => ((closed = options.signal.reason), resolve({ action: 'cancel' })), { once: true }))]);
      await rig.open(host.url, host.token, { reconnectDelaysMs: [20, 20] });
      await waitUntil('the question', () => rig!.prompter.asked.length === 1);
      await host.stop();
      host = undefined;
      await waitUntil('the prompt to close', () => closed);
      assert.match(String((closed as Error).message), /the connection to the agent host was lost/);
      assert.equal(rig.told.statuses.at(-1), 'closed');
      assert.equal(rig.history.entries[0]?.outcome, 'withdrawn');
    });
  });

  describe('what a host sends is untrusted', () => {
    it('hostile text reaches the person as the same text: no markup, icons or links are made of it', async () => {
      host = await FixtureHost.start();
      const hostile = '<img src=x onerror=alert(1)> $(zap) [quit](command:workbench.action.quit) \u001b[31mred\u001b[0m \u202eevil';
      const { chat } = host.addSession(hostile);
      host.requestInput(chat, { id: 'h', message: hostile, questions: [{ id: 'q', kind: 'single-select', title: hostile, message: hostile, options: [{ id: 'a', label: hostile }] }] });
      rig = new AhpRig([(request) => ({ action: 'accept', answers: submitted(request, { q: 'a' }) })]);
      await rig.open(host.url, host.token);
      await completion(host, 'h');
      const { request } = rig.prompter.asked[0];
      assert.equal(request.message, hostile);
      assert.equal(request.source.session, hostile);
      assert.equal(request.questions[0].title, hostile);
      assert.deepEqual(request.questions[0].kind === 'single-select' && request.questions[0].options[0].label, hostile);
    });

    it('an oversized question is refused naming the limit, and not answered; the next is asked', async () => {
      host = await FixtureHost.start();
      const { chat } = host.addSession();
      rig = new AhpRig([accept({ name: 'fine' })]);
      await rig.open(host.url, host.token);
      host.requestInput(chat, { id: 'many', questions: Array.from({ length: 101 }, (_, i) => ({ id: `q${i}`, kind: 'text', message: 'x' })) });
      host.requestInput(chat, { id: 'long', message: 'x'.repeat(10_001), questions: [QUESTION] });
      host.requestInput(chat, { id: 'options', questions: [{ id: 'o', kind: 'single-select', message: 'x', options: Array.from({ length: 1_001 }, (_, i) => ({ id: `o${i}`, label: 'x' })) }] });
      host.requestInput(chat, { id: 'ok', questions: [QUESTION] });
      await completion(host, 'ok');
      const reasons = rig.told.refused.map((r) => r.reason).join('\n');
      assert.match(reasons, /questions has 101 questions, over the limit of 100 questions/);
      assert.match(reasons, /message has 10,001 characters, over the limit of 10,000 characters/);
      assert.match(reasons, /options has 1,001 options, over the limit of 1,000 options/);
      assert.equal(rig.prompter.asked.length, 1);
      assert.ok(!host.clientActions.some((e) => ['many', 'long', 'options'].includes(String(e.action.requestId))), 'the host hears nothing for them');
    });

    it('broken messages are dropped and logged; the connection lives on', async () => {
      host = await FixtureHost.start();
      const { chat } = host.addSession();
      rig = new AhpRig([accept({ name: 'still here' })]);
      await rig.open(host.url, host.token);
      host.sendRaw('not json at all');
      host.sendRaw('[1, 2, 3]');
      host.sendRaw(JSON.stringify({ jsonrpc: '2.0', method: 'action', params: { channel: 5, action: { type: 'chat/inputRequested' }, serverSeq: 1 } }));
      host.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 999, result: {} }));
      host.sendEnvelope(chat, { type: 'chat/inputRequested', request: { id: 'bad', questions: 'not a list' } });
      host.sendEnvelope(chat, { type: 'chat/somethingNew', whatever: true });
      host.requestInput(chat, { id: 'after', questions: [QUESTION] });
      assert.equal((await completion(host, 'after')).action.response, 'accept');
      const warnings = rig.warnings.join('\n');
      assert.match(warnings, /dropped a frame that is not JSON/);
      assert.match(warnings, /dropped a message that is not a JSON-RPC object/);
      assert.match(warnings, /dropped a action message: params\.channel must be a string/);
      assert.match(warnings, /dropped a response to request 999, which is not waiting/);
      assert.match(warnings, /dropped a chat\/inputRequested action: action\.request\.questions must be a list/);
      assert.doesNotMatch(warnings, /somethingNew/, 'an action of a kind we do not read is no fault');
    });

    it("the host's own requests are answered MethodNotFound", async () => {
      host = await FixtureHost.start();
      rig = new AhpRig();
      await rig.open(host.url, host.token);
      host.askClients('resourceRead');
      const reply = await waitUntil('the reply', () => host!.replies[0] as { id?: unknown; error?: { code?: number } } | undefined);
      assert.equal(reply.id, 'host-resourceRead');
      assert.equal(reply.error?.code, -32601);
    });
  });
});
