/**
 * The ACP proxy's routing (src/acp/proxy-router.ts), line by line: what passes through
 * untouched, the one rewrite, which questions we answer, how ids of the two directions stay
 * apart, and what closes a question.
 */
import { strict as assert } from 'node:assert';
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk';
import { type ProxyQuestion, ProxyQuestionRefused, ProxyRouter } from '../../src/acp/proxy-router';

interface Asked {
  readonly question: ProxyQuestion;
  readonly signal: AbortSignal;
  answer(result: CreateElicitationResponse): void;
  fail(error: Error): void;
}

function harness() {
  const toAgent: string[] = [];
  const toClient: string[] = [];
  const logs: string[] = [];
  const asked: Asked[] = [];
  const router = new ProxyRouter({
    toAgent: (line) => toAgent.push(line),
    toClient: (line) => toClient.push(line),
    log: (message) => logs.push(message),
    ask: (question, signal) =>
      new Promise((resolve, reject) => {
        asked.push({ question, signal, answer: resolve, fail: reject });
        signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
      }),
  });
  return { router, toAgent, toClient, logs, asked };
}

const line = (message: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', ...message });
const parsed = (text: string | undefined): Record<string, unknown> => JSON.parse(text ?? 'null') as Record<string, unknown>;
/** Lets the router's answer (after an awaited ask) be written. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function initialize(router: ProxyRouter, clientCapabilities: Record<string, unknown>, id: number | string = 0): void {
  router.fromClient(line({ id, method: 'initialize', params: { protocolVersion: 1, clientCapabilities, clientInfo: { name: 'zed', version: '1' } } }));
}

const FORM = { mode: 'form', message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } };

describe('ACP proxy routing', () => {
  it('offers form and url to the agent for a client that offers no elicitation, and changes nothing else', () => {
    const { router, toAgent } = harness();
    initialize(router, { fs: { readTextFile: true }, terminal: true, _meta: { x: 1 } });
    assert.deepEqual(parsed(toAgent[0]), {
      jsonrpc: '2.0', id: 0, method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true }, terminal: true, _meta: { x: 1 }, elicitation: { form: {}, url: {} } }, clientInfo: { name: 'zed', version: '1' } },
    });
    assert.equal(router.answersQuestions, true);
  });

  it('takes {} (and a mode given as null) as no elicitation; {form: {}} as the client\'s own', () => {
    for (const [elicitation, ours] of [[{}, true], [{ form: null }, true], [{ url: {} }, false], [{ form: {} }, false]] as const) {
      const { router, toAgent } = harness();
      const sent = line({ id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { elicitation } } });
      router.fromClient(sent);
      assert.equal(router.answersQuestions, ours, JSON.stringify(elicitation));
      if (!ours) assert.equal(toAgent[0], sent);
    }
  });

  it('passes every other line through byte for byte, both ways', () => {
    const { router, toAgent, toClient } = harness();
    initialize(router, {});
    const prompt = '{"jsonrpc":"2.0",  "id":"p1","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"héllo\\u0000"}]}}';
    const update = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}';
    const unreadable = '[{"jsonrpc":"2.0","id":9,"method":"x"}]';
    router.fromClient(prompt);
    router.fromClient(unreadable);
    router.fromAgent(update);
    router.fromAgent('{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}');
    assert.deepEqual(toAgent.slice(1), [prompt, unreadable]);
    assert.deepEqual(toClient, [update, '{"jsonrpc":"2.0","id":"p1","result":{"stopReason":"end_turn"}}']);
  });

  it('answers the agent\'s question itself, with the tool call\'s title and the session\'s first prompt as who asks', async () => {
    const { router, toAgent, toClient, asked } = harness();
    initialize(router, {});
    router.fromClient(line({ id: 1, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'fix   the\ntests' }] } }));
    router.fromAgent(line({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Choose a colour' } } }));
    router.fromAgent(line({ id: 1, method: 'elicitation/create', params: { ...FORM, sessionId: 's1', toolCallId: 't1' } }));
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0].question, { params: { mode: 'form', message: 'Colour?', requestedSchema: FORM.requestedSchema }, tool: 'Choose a colour', session: 'fix the tests' });
    asked[0].answer({ action: 'accept', content: { colour: 'red' } });
    await settle();
    assert.deepEqual(parsed(toAgent.at(-1)), { jsonrpc: '2.0', id: 1, result: { action: 'accept', content: { colour: 'red' } } });
    // The client saw the update, never the question.
    assert.equal(toClient.length, 1);
  });

  it('keeps the two directions\' ids apart: the same id in flight both ways, and a response to what was not forwarded dropped', async () => {
    const { router, toAgent, toClient, asked, logs } = harness();
    initialize(router, {});
    // The client's request 1 and the agent's own request 1, at once.
    router.fromClient(line({ id: 1, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } }));
    router.fromAgent(line({ id: 1, method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    router.fromAgent(line({ id: 2, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 't' }, options: [] } }));
    assert.equal(parsed(toClient[0]).method, 'session/request_permission');
    // The client answers its permission (2), and sends id 1 as a response: the agent's 1 never reached it.
    router.fromClient(line({ id: 2, result: { outcome: { outcome: 'cancelled' } } }));
    router.fromClient(line({ id: 1, result: { action: 'accept' } }));
    assert.deepEqual(toAgent.slice(2).map(parsed), [{ jsonrpc: '2.0', id: 2, result: { outcome: { outcome: 'cancelled' } } }]);
    assert.match(logs[0], /the client answered id 1, which is no request of the agent's waiting for it; dropped/);
    // Our answer to the agent's 1 goes to the agent; the agent's answer to the client's 1 goes to the client.
    asked[0].answer({ action: 'decline' });
    await settle();
    assert.deepEqual(parsed(toAgent.at(-1)), { jsonrpc: '2.0', id: 1, result: { action: 'decline' } });
    router.fromAgent(line({ id: 1, result: { stopReason: 'end_turn' } }));
    assert.deepEqual(parsed(toClient.at(-1)), { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } });
    // A second answer to the same request is a stray.
    router.fromAgent(line({ id: 1, result: { stopReason: 'end_turn' } }));
    assert.equal(toClient.length, 2);
    assert.match(logs[1], /the agent answered id 1, which is no request of the client's waiting for it; dropped/);
  });

  it('a numeric id and the same digits as a string are different requests', () => {
    const { router, toClient, logs } = harness();
    initialize(router, {});
    router.fromClient(line({ id: 7, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }));
    router.fromAgent(line({ id: '7', result: { sessionId: 's' } }));
    assert.equal(toClient.length, 0);
    assert.match(logs[0], /id "7"/);
    router.fromAgent(line({ id: 7, result: { sessionId: 's' } }));
    assert.equal(toClient.length, 1);
  });

  it('the client\'s session/cancel closes that session\'s questions only, answered cancel, and goes on to the agent', async () => {
    const { router, toAgent, asked } = harness();
    initialize(router, {});
    router.fromAgent(line({ id: 'a', method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    router.fromAgent(line({ id: 'b', method: 'elicitation/create', params: { ...FORM, sessionId: 's2' } }));
    const cancel = line({ method: 'session/cancel', params: { sessionId: 's1' } });
    router.fromClient(cancel);
    assert.equal(asked[0].signal.aborted, true);
    assert.equal((asked[0].signal.reason as Error).message, 'the client cancelled the turn');
    assert.equal(asked[1].signal.aborted, false);
    await settle();
    assert.ok(toAgent.includes(cancel));
    assert.deepEqual(parsed(toAgent.at(-1)), { jsonrpc: '2.0', id: 'a', result: { action: 'cancel' } });
  });

  it('the end of a session\'s turn closes its open questions', async () => {
    const { router, toAgent, asked } = harness();
    initialize(router, {});
    router.fromClient(line({ id: 5, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } }));
    router.fromAgent(line({ id: 9, method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    router.fromAgent(line({ id: 5, result: { stopReason: 'end_turn' } }));
    assert.equal((asked[0].signal.reason as Error).message, 'the turn ended');
    await settle();
    assert.deepEqual(parsed(toAgent.at(-1)), { jsonrpc: '2.0', id: 9, result: { action: 'cancel' } });
  });

  it('a question before the session belongs to a request of the client\'s in flight, and closes with its answer', async () => {
    const { router, toAgent, asked } = harness();
    initialize(router, {});
    router.fromClient(line({ id: 3, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }));
    router.fromAgent(line({ id: 40, method: 'elicitation/create', params: { ...FORM, requestId: 3 } }));
    assert.deepEqual(asked[0].question.tool, 'before the session starts');
    router.fromAgent(line({ id: 3, result: { sessionId: 's1' } }));
    assert.equal(asked[0].signal.aborted, true);
    router.fromAgent(line({ id: 41, method: 'elicitation/create', params: { ...FORM, requestId: 3 } }));
    await settle();
    assert.equal(asked.length, 1);
    assert.deepEqual(toAgent.slice(1).map(parsed).find((m) => m.id === 40), { jsonrpc: '2.0', id: 40, result: { action: 'cancel' } });
    assert.deepEqual(toAgent.slice(1).map(parsed).find((m) => m.id === 41), { jsonrpc: '2.0', id: 41, error: { code: -32602, message: 'Invalid elicitation request: requestId 3 is not a request of the client waiting for its answer' } });
  });

  it('refuses a malformed question (-32602 naming the field) and reports one that could not be asked', async () => {
    const { router, toAgent, asked } = harness();
    initialize(router, {});
    router.fromAgent(line({ id: 1, method: 'elicitation/create', params: { mode: 'form', sessionId: 's1', message: 'x' } }));
    router.fromAgent(line({ id: 2, method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    router.fromAgent(line({ id: 3, method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    asked[0].fail(new ProxyQuestionRefused('Not a question we ask: question.requestedSchema.type: must be "object"'));
    asked[1].fail(new Error('socket hang up'));
    await settle();
    assert.deepEqual(toAgent.slice(1).map(parsed), [
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid elicitation request: requestedSchema must be an object in form mode' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid elicitation request: Not a question we ask: question.requestedSchema.type: must be "object"' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'The question could not be asked: socket hang up' } },
    ]);
  });

  it('elicitation/complete is ours when we answer questions, the client\'s when it does', () => {
    const complete = line({ method: 'elicitation/complete', params: { elicitationId: 'e1' } });
    const ours = harness();
    initialize(ours.router, {});
    ours.router.fromAgent(complete);
    assert.deepEqual(ours.toClient, []);
    const theirs = harness();
    initialize(theirs.router, { elicitation: { url: {} } });
    theirs.router.fromAgent(complete);
    theirs.router.fromAgent(line({ id: 1, method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    assert.equal(theirs.toClient.length, 2);
    assert.equal(theirs.asked.length, 0);
  });

  it('closing closes every open question and answers nothing more', async () => {
    const { router, toAgent, asked } = harness();
    initialize(router, {});
    router.fromAgent(line({ id: 1, method: 'elicitation/create', params: { ...FORM, sessionId: 's1' } }));
    router.close('the agent ended');
    assert.equal((asked[0].signal.reason as Error).message, 'the agent ended');
    await settle();
    assert.equal(toAgent.length, 1);
  });
});
