/**
 * src/ahp/wire/ and endpoint.ts without a socket: the version table and negotiation,
 * each checker on good and bad messages (unknown fields left behind, limits named), the
 * conversation mirror's opening, answering and withdrawing, and the rules for where a host
 * may be reached and how the token travels.
 */
import { strict as assert } from 'node:assert';
import { Conversation, type Closing, type OpenItem } from '../../src/ahp/conversation';
import { EndpointError, parseEndpoint, socketAddress } from '../../src/ahp/endpoint';
import { answerFitsQuestion } from '../../src/ahp/input-prompt';
import { readAction } from '../../src/ahp/wire/actions';
import { readConversation, readSessionState } from '../../src/ahp/wire/channel-state';
import { WireError } from '../../src/ahp/wire/check';
import { readInitializeResult, readReconnectResult } from '../../src/ahp/wire/connection';
import { type ActionAuthor, readActionEnvelope } from '../../src/ahp/wire/envelope';
import { readInputRequest } from '../../src/ahp/wire/input-request';
import { readListSessions } from '../../src/ahp/wire/root';
import { negotiate, OFFERED_VERSIONS, VERSION_TABLE } from '../../src/ahp/wire/versions';
import { answerChangedAction, inputCompletedAction, toolCallConfirmedAction } from '../../src/ahp/wire/writes';

function refusedWith(read: () => unknown, pattern: RegExp): void {
  assert.throws(read, (error: unknown) => error instanceof WireError && pattern.test(error.message));
}

describe('AHP protocol: versions', () => {
  it('offers what the table speaks, most preferred first: 1.x, then VS Code 1.139.1\'s 0.9.0', () => {
    assert.deepEqual(OFFERED_VERSIONS, ['1.0.0', '0.9.0']);
    assert.equal(VERSION_TABLE['0.9.0'].reconnect, 'watermark');
    assert.equal(VERSION_TABLE['1.0.0'].reconnect, 'per-channel');
  });

  it('negotiates as VS Code and the spec do: same major (and minor below 1.0), at or below the host\'s', () => {
    assert.equal(negotiate(OFFERED_VERSIONS, ['0.9.0']), '0.9.0');
    assert.equal(negotiate(OFFERED_VERSIONS, ['1.3.0']), '1.0.0');
    assert.equal(negotiate(OFFERED_VERSIONS, ['1.0.0', '0.9.0']), '1.0.0');
    assert.equal(negotiate(OFFERED_VERSIONS, ['0.10.0']), undefined, '0.x minors do not mix');
    assert.equal(negotiate(OFFERED_VERSIONS, ['0.8.0']), undefined, 'a host older than all we offer');
    assert.equal(negotiate(['0.9.0', 'junk'], ['0.9.1']), '0.9.0');
  });
});

describe('AHP protocol: checkers', () => {
  it('initialize: the fields we use, unknown ones left behind', () => {
    const result = readInitializeResult({ protocolVersion: '0.9.0', serverSeq: 4, snapshots: [{ resource: 'ahp-root://', state: { agents: [] }, fromSeq: 4 }], defaultDirectory: 'file:///', _meta: { x: 1 } });
    assert.deepEqual(result, { protocolVersion: '0.9.0', serverSeq: 4, snapshots: [{ resource: 'ahp-root://', state: { agents: [] }, fromSeq: 4 }] });
    refusedWith(() => readInitializeResult({ protocolVersion: '0.9.0', serverSeq: -1, snapshots: [] }), /result\.serverSeq must be a whole number/);
  });

  it('an action envelope: its channel, type, sequence and origin checked', () => {
    const envelope = readActionEnvelope({ channel: 'ahp-chat://x', action: { type: 'chat/delta', content: 'hi' }, serverSeq: 7, origin: { clientId: 'c', clientSeq: 2 } });
    assert.equal(envelope.origin?.clientSeq, 2);
    refusedWith(() => readActionEnvelope({ channel: 'c', action: { type: 'x' }, serverSeq: 1.5 }), /params\.serverSeq/);
    refusedWith(() => readActionEnvelope({ channel: 'c', action: null, serverSeq: 1 }), /params\.action must be an object/);
    refusedWith(() => readActionEnvelope({ channel: 'x'.repeat(1_025), action: { type: 'x' }, serverSeq: 1 }), /params\.channel has 1,025 characters, over the limit of 1,024/);
  });

  it('an input request of every question kind, as VS Code 1.139.1 sends it', () => {
    const request = readInputRequest({
      id: 'r',
      questions: [
        { kind: 'text', id: 't', title: 'T', message: 'Text?', required: true, format: 'email', min: 1, max: 9, defaultValue: 'a@b.c', extra: 1 },
        { kind: 'text', id: 'f', message: 'Unknown format', format: 'color' },
        { kind: 'integer', id: 'i', message: 'Int?', min: 0, max: 3, defaultValue: 1 },
        { kind: 'boolean', id: 'b', message: 'Yes?', defaultValue: true },
        { kind: 'single-select', id: 's', message: 'One?', options: [{ id: 'a', label: 'A', description: 'first', recommended: true }], allowFreeformInput: true },
        { kind: 'multi-select', id: 'm', message: 'Many?', options: [{ id: 'a', label: 'A' }], min: 1 },
      ],
      answers: { s: { state: 'draft', value: { kind: 'selected', value: 'a', freeformValues: ['own'] } } },
      _meta: { source: 'askUser' },
    });
    assert.deepEqual(request.questions[0], { id: 't', title: 'T', message: 'Text?', required: true, kind: 'text', format: 'email', min: 1, max: 9, defaultValue: 'a@b.c' });
    assert.deepEqual(request.questions[1], { id: 'f', message: 'Unknown format', kind: 'text' }, 'a format we do not know is left out');
    assert.deepEqual(request.questions[4], { id: 's', message: 'One?', kind: 'single-select', options: [{ id: 'a', label: 'A', description: 'first', recommended: true }], allowFreeformInput: true });
    assert.deepEqual(request.answers.s, { state: 'draft', value: { kind: 'selected', value: 'a', freeformValues: ['own'] } });
  });

  it('refuses what does not fit, naming the field and the limit', () => {
    refusedWith(() => readInputRequest({ id: '', questions: [] }), /request\.id must not be empty/);
    refusedWith(() => readInputRequest({ id: 'r', questions: [{ id: 'q', kind: 'color', message: 'x' }] }), /request\.questions\[0\]\.kind must be text, number, integer, boolean, single-select or multi-select, not "color"/);
    refusedWith(() => readInputRequest({ id: 'r', questions: [{ id: 'q', kind: 'single-select', message: 'x', options: 'a' }] }), /questions\[0\]\.options must be a list/);
    refusedWith(() => readInputRequest({ id: 'r', questions: [{ id: 'q', kind: 'number', message: 'x', min: 'low' }] }), /questions\[0\]\.min must be a finite number/);
    refusedWith(() => readInputRequest({ id: 'r', questions: Array.from({ length: 101 }, (_, i) => ({ id: `q${i}`, kind: 'boolean', message: 'x' })) }), /has 101 questions, over the limit of 100 questions/);
    refusedWith(() => readInputRequest({ id: 'r', questions: [{ id: 'q', kind: 'text', title: 't'.repeat(1_001), message: 'x' }] }), /title has 1,001 characters, over the limit of 1,000/);
    refusedWith(() => readInputRequest({ id: 'r', answers: { q: { state: 'submitted' } } }), /answers\.q\.value must be an object/);
    refusedWith(() => readInputRequest({ id: 'r', answers: { q: { state: 'submitted', value: { kind: 'number', value: Infinity } } } }), /must be a finite number/);
  });

  it('a question called __proto__ is an answer key like any other', () => {
    const request = readInputRequest(JSON.parse('{"id":"r","questions":[{"id":"__proto__","kind":"text","message":"x"}],"answers":{"__proto__":{"state":"draft","value":{"kind":"text","value":"v"}}}}'));
    assert.ok(Object.prototype.hasOwnProperty.call(request.answers, '__proto__'));
    assert.equal(Object.getPrototypeOf(request.answers), Object.prototype);
  });

  it('reconnect: the 0.x replay and snapshot shapes, and 1.x per channel', () => {
    const action = { channel: 'c', action: { type: 'chat/delta' }, serverSeq: 3 };
    assert.deepEqual(readReconnectResult({ type: 'replay', actions: [action], missing: ['gone'] }).missing, ['gone']);
    assert.equal(readReconnectResult({ type: 'snapshot', snapshots: [{ resource: 'c', state: {} }] }).snapshots.length, 1);
    const perChannel = readReconnectResult({ channels: [{ kind: 'replay', channel: 'c', actions: [{ ...action, serverSeq: 5 }, action] }, { kind: 'missing', channel: 'd' }, { kind: 'snapshot', channel: 'e', snapshot: { resource: 'e', state: {} } }] });
    assert.deepEqual(perChannel.actions.map((a) => a.serverSeq), [3, 5], 'in order');
    assert.deepEqual(perChannel.missing, ['d']);
    refusedWith(() => readReconnectResult({ type: 'guess' }), /result must be a replay or a snapshot/);
  });

  it('listSessions: the first thousand sessions, the rest counted', () => {
    const items = Array.from({ length: 1_002 }, (_, i) => ({ resource: `claude:/${i}`, provider: 'claude', title: `s${i}` }));
    const listed = readListSessions({ items });
    assert.equal(listed.sessions.length, 1_000);
    assert.equal(listed.omitted, 2);
  });

  it('a session state: its chats and title; a chat state: the open requests and tool calls of its active turn', () => {
    assert.deepEqual(readSessionState({ summary: { title: 'fix' }, chats: [{ resource: 'ahp-chat://a' }], defaultChat: 'ahp-chat://a' }), { title: 'fix', chats: ['ahp-chat://a'] });
    const view = readConversation({
      turns: [{ id: 'old' }],
      activeTurn: {
        id: 't1',
        responseParts: [
          { kind: 'markdown', content: 'ignored' },
          { kind: 'inputRequest', request: { id: 'done', questions: [] }, response: 'accept' },
          { kind: 'inputRequest', request: { id: 'open', questions: [] } },
          { kind: 'inputRequest', request: { id: 'broken', questions: 7 } },
          { kind: 'toolCall', toolCall: { toolCallId: 'tc', status: 'pending-confirmation', toolName: 'Bash', toolInput: 'ls', invocationMessage: { markdown: 'Run **ls**' } } },
          { kind: 'toolCall', toolCall: { toolCallId: 'ran', status: 'completed' } },
        ],
      },
    });
    assert.deepEqual(view.requests.map((r) => r.id), ['open']);
    assert.deepEqual(view.toolCalls.map((t) => [t.turnId, t.call.toolCallId, t.call.invocationMessage]), [['t1', 'tc', 'Run **ls**']]);
    assert.equal(view.problems.length, 1, 'the broken request costs only itself');
    assert.match(view.problems[0], /responseParts\[3\]\.request\.questions must be a list/);
    assert.deepEqual(readConversation({ inputRequests: [{ id: 'old-style', questions: [] }] }).requests.map((r) => r.id), ['old-style']);
  });

  it('actions in both namings; what we do not read is other', () => {
    assert.deepEqual(readAction({ type: 'session/inputCompleted', requestId: 'r', response: 'decline' }), { type: 'inputCompleted', naming: 'session', requestId: 'r', response: 'decline' });
    assert.deepEqual(readAction({ type: 'chat/turnCancelled', turnId: 't', duration: 1 }), { type: 'turnEnded', naming: 'chat', how: 'cancelled', turnId: 't' });
    assert.deepEqual(readAction({ type: 'chat/toolCallConfirmed', turnId: 't', toolCallId: 'c', approved: false }), { type: 'toolCallSettled', naming: 'chat', turnId: 't', toolCallId: 'c', how: 'denied' });
    assert.deepEqual(readAction({ type: 'session/chatAdded', summary: { resource: 'ahp-chat://b' } }), { type: 'chatAdded', chat: 'ahp-chat://b' });
    assert.deepEqual(readAction({ type: 'terminal/data', data: 'x' }), { type: 'other', name: 'terminal/data' });
    refusedWith(() => readAction({ type: 'chat/inputCompleted', requestId: 'r', response: 'maybe' }), /action\.response must be accept, decline or cancel/);
  });

  it('what we send, in the naming the request came in', () => {
    const answer = { state: 'draft' as const, value: { kind: 'text' as const, value: 'x' } };
    assert.deepEqual(answerChangedAction('chat', 'ahp-chat://a', 'r', 'q', answer), { type: 'chat/inputAnswerChanged', requestId: 'r', questionId: 'q', answer });
    assert.deepEqual(answerChangedAction('session', 'claude:/s', 'r', 'q', undefined), { type: 'session/inputAnswerChanged', session: 'claude:/s', requestId: 'r', questionId: 'q' });
    assert.deepEqual(inputCompletedAction('chat', 'c', 'r', 'cancel'), { type: 'chat/inputCompleted', requestId: 'r', response: 'cancel' });
    assert.deepEqual(toolCallConfirmedAction('chat', 'c', 't', 'tc', false), { type: 'chat/toolCallConfirmed', turnId: 't', toolCallId: 'tc', approved: false, reason: 'denied' });
    assert.deepEqual(toolCallConfirmedAction('chat', 'c', 't', 'tc', true, 'allow-once'), { type: 'chat/toolCallConfirmed', turnId: 't', toolCallId: 'tc', approved: true, confirmed: 'user-action', selectedOptionId: 'allow-once' });
  });

  it('an answer fits its question by kind; an own answer only where the question takes one', () => {
    const select = { id: 's', message: '', kind: 'single-select' as const, options: [{ id: 'a', label: 'A' }] };
    assert.ok(answerFitsQuestion(select, { state: 'draft', value: { kind: 'selected', value: 'a' } }));
    assert.ok(!answerFitsQuestion(select, { state: 'draft', value: { kind: 'text', value: 'own' } }));
    assert.ok(!answerFitsQuestion(select, { state: 'draft', value: { kind: 'selected', value: 'a', freeformValues: ['own'] } }));
    assert.ok(answerFitsQuestion({ ...select, allowFreeformInput: true }, { state: 'draft', value: { kind: 'text', value: 'own' } }));
    assert.ok(answerFitsQuestion({ id: 'n', message: '', kind: 'integer' }, { state: 'skipped' }));
    assert.ok(!answerFitsQuestion({ id: 'n', message: '', kind: 'integer' }, { state: 'submitted', value: { kind: 'text', value: '3' } }));
  });
});

describe('AHP conversation mirror', () => {
  function mirror(naming: 'chat' | 'session' = 'chat') {
    const opened: OpenItem[] = [];
    const closed: Array<[string, Closing]> = [];
    const changed: Array<[string, unknown, ActionAuthor]> = [];
    const conversation = new Conversation('ahp-chat://a', naming, {
      opened: (item) => opened.push(item),
      closed: (key, closing) => closed.push([key, closing]),
      answerChanged: (_key, questionId, answer, by) => changed.push([questionId, answer, by]),
      refused: () => undefined,
    }, { info: () => undefined, warn: () => undefined }, () => 'me');
    let seq = 0;
    const act = (action: Record<string, unknown> & { type: string }, clientId?: string): void => conversation.apply({ channel: 'ahp-chat://a', action, serverSeq: ++seq, ...(clientId && { origin: { clientId, clientSeq: seq } }) });
    return { conversation, opened, closed, changed, act };
  }

  it('opens once, keeps drafts on a re-sent request, and closes as answered by us or elsewhere', () => {
    const { opened, closed, changed, act } = mirror();
    act({ type: 'chat/turnStarted', turnId: 't' });
    act({ type: 'chat/inputRequested', request: { id: 'r', questions: [{ id: 'q', kind: 'text', message: 'x' }] } });
    act({ type: 'chat/inputRequested', request: { id: 'r', questions: [{ id: 'q', kind: 'text', message: 'x' }] } });
    assert.equal(opened.length, 1);
    act({ type: 'chat/inputAnswerChanged', requestId: 'r', questionId: 'q', answer: { state: 'draft', value: { kind: 'text', value: 'a' } } }, 'other');
    act({ type: 'chat/inputAnswerChanged', requestId: 'r', questionId: 'q', answer: { state: 'draft', value: { kind: 'text', value: 'b' } } }, 'me');
    assert.deepEqual(changed.map(([, , by]) => by), ['another client', 'us']);
    act({ type: 'chat/inputCompleted', requestId: 'r', response: 'accept' }, 'other');
    assert.deepEqual(closed[0][1], { kind: 'answered', by: 'another client', how: 'accept' });
    act({ type: 'chat/inputRequested', request: { id: 'r2', questions: [] } });
    act({ type: 'chat/inputCompleted', requestId: 'r2', response: 'decline' }, 'me');
    assert.deepEqual(closed[1][1], { kind: 'answered', by: 'us', how: 'decline' });
  });

  it('a refused write changes nothing; the end of the turn withdraws what is open; other naming is not ours', () => {
    const { opened, closed, act, conversation } = mirror();
    act({ type: 'chat/turnStarted', turnId: 't' });
    act({ type: 'chat/inputRequested', request: { id: 'r', questions: [] } });
    conversation.apply({ channel: 'ahp-chat://a', action: { type: 'chat/inputCompleted', requestId: 'r', response: 'accept' }, serverSeq: 99, origin: { clientId: 'me', clientSeq: 1 }, rejectionReason: 'no' });
    assert.equal(closed.length, 0);
    act({ type: 'session/inputRequested', request: { id: 'elsewhere', questions: [] } });
    assert.equal(opened.length, 1);
    act({ type: 'chat/turnCancelled', turnId: 't' });
    assert.deepEqual(closed[0][1], { kind: 'withdrawn', why: "the agent's turn was cancelled" });
  });

  it('a snapshot: new opens, gone closes, changed answers are told', () => {
    const { opened, closed, changed, conversation } = mirror();
    const turn = (parts: unknown[]) => ({ activeTurn: { id: 't', responseParts: parts } });
    conversation.reset(turn([{ kind: 'inputRequest', request: { id: 'a', questions: [{ id: 'q', kind: 'text', message: 'x' }] } }]));
    conversation.reset(turn([
      { kind: 'inputRequest', request: { id: 'a', questions: [{ id: 'q', kind: 'text', message: 'x' }], answers: { q: { state: 'draft', value: { kind: 'text', value: 'd' } } } } },
      { kind: 'inputRequest', request: { id: 'b', questions: [] } },
    ]));
    assert.deepEqual(opened.map((o) => o.kind === 'input' && o.request.id), ['a', 'b']);
    assert.deepEqual(changed, [['q', { state: 'draft', value: { kind: 'text', value: 'd' } }, 'the host']]);
    conversation.reset(turn([]));
    assert.deepEqual(closed.map(([, c]) => c.kind), ['withdrawn', 'withdrawn']);
  });
});

describe('AHP endpoints', () => {
  it('wss:// anywhere; ws:// only to this machine; a socket path', () => {
    assert.equal(parseEndpoint('wss://agents.example.com/host').endpoint.kind, 'url');
    for (const local of ['ws://127.0.0.1:8123', 'ws://localhost:1', 'ws://[::1]:2', 'ws://127.1.2.3:3']) assert.equal(parseEndpoint(local).endpoint.kind, 'url', local);
    assert.deepEqual(parseEndpoint('/tmp/agent-host.sock').endpoint, { kind: 'socket', path: '/tmp/agent-host.sock', display: '/tmp/agent-host.sock' });
    assert.equal(parseEndpoint('\\\\.\\pipe\\vscode-agent-host').endpoint.kind, 'socket');
  });

  it('refuses with a clear error: ws:// to another machine, http://, other schemes, credentials in the URL', () => {
    assert.throws(() => parseEndpoint('ws://192.168.1.20:8123'), (e: unknown) => e instanceof EndpointError && /ws:\/\/ is unencrypted and only allowed to this machine .* use wss:\/\/, or forward its port over SSH/.test(e.message));
    assert.throws(() => parseEndpoint('ws://localhost.evil.com:1'), EndpointError);
    assert.throws(() => parseEndpoint('https://host:1'), /use wss:\/\/host:1/);
    assert.throws(() => parseEndpoint('ftp://host'), /must start with ws:\/\/ or wss:\/\//);
    assert.throws(() => parseEndpoint('wss://me:secret@host'), /must not carry a user name or password/);
    assert.throws(() => parseEndpoint('relative/path'), /neither a ws:\/\/ or wss:\/\/ URL nor an absolute socket path/);
  });

  it('the token as `code agent host` prints it is taken out of what is shown, and goes back as ?tkn=', () => {
    const { endpoint, tokenInUrl } = parseEndpoint('ws://127.0.0.1:8123?tkn=s3cret');
    assert.equal(tokenInUrl, 's3cret');
    assert.equal(endpoint.display, 'ws://127.0.0.1:8123');
    assert.doesNotMatch(JSON.stringify(endpoint), /s3cret/);
    assert.equal(socketAddress(endpoint, 'a b&c'), 'ws://127.0.0.1:8123/?tkn=a+b%26c');
    assert.equal(socketAddress(parseEndpoint('/run/ah.sock').endpoint, 't'), 'ws+unix:/run/ah.sock:/?tkn=t');
  });
});
