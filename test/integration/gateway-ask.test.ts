/**
 * The gateway's `POST /ask`: a question from a terminal (`elicitation-host ask`, the ACP
 * proxy) put to the scripted person through the broker, answered `{action, content?}`;
 * refused by the guard like every other path, malformed bodies and schemas refused naming
 * the field, and withdrawn when the caller's connection closes.
 */
import { strict as assert } from 'node:assert';
import { type ClientRequest, request as httpRequest } from 'node:http';
import { accept, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { gatewaysPerTest, TOKEN } from '../support/gateway-harness';
import { waitUntil } from '../support/wait';

interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** POSTs a body to `url`; `sent` gets the request, so a test can close it as a stopped script would. */
function postAsk(url: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, sent?: (req: ClientRequest) => void): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }));
    });
    req.on('error', reject);
    sent?.(req);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const confirm = (message: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  from: 'git',
  ...extra,
  question: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
});

describe('gateway: POST /ask, questions from terminals', function () {
  this.timeout(20_000);
  const gateways = gatewaysPerTest();

  it('asks a destructive confirm as "Terminal: git", a call the person started, and answers accept', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const harness = await gateways.start(prompter, []);
    const reply = await postAsk(harness.gateway.askUrl, confirm('Push to main?', { destructive: true }));
    assert.deepEqual(reply, { status: 200, body: { action: 'accept', content: {} } });
    const { request, options } = prompter.asked[0];
    assert.equal(options.presentation, 'confirm');
    assert.equal(request.message, 'Push to main?');
    assert.deepEqual(request.source, { server: 'Terminal: git', destructive: true, personStarted: true });
    // The History follows the store: the question is there, answered.
    assert.equal(harness.host.store.state.requests.find((r) => r.request.id === request.id)?.status, 'accepted');
  });

  it('answers a form with its content, and a decline as decline', async () => {
    const prompter = new ScriptedPrompter([accept({ colour: 'blue' }), decline]);
    const harness = await gateways.start(prompter, []);
    const form = {
      from: 'claude-agent-acp',
      agent: true,
      tool: 'Which colour?',
      session: 'ask me',
      question: { message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'blue'] } }, required: ['colour'] } },
    };
    assert.deepEqual(await postAsk(harness.gateway.askUrl, form), { status: 200, body: { action: 'accept', content: { colour: 'blue' } } });
    assert.deepEqual(prompter.asked[0].request.source, { server: 'Terminal: claude-agent-acp', requester: 'agent', tool: 'Which colour?', session: 'ask me' });
    assert.deepEqual(await postAsk(harness.gateway.askUrl, form), { status: 200, body: { action: 'decline' } });
  });

  it('asks a link, and declines one that is not a web page without asking', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const harness = await gateways.start(prompter, []);
    const link = (url: string) => ({ from: 'make', question: { mode: 'url', message: 'Review the release', url, elicitationId: 'r1' } });
    assert.deepEqual(await postAsk(harness.gateway.askUrl, link('https://example.com/release/1')), { status: 200, body: { action: 'accept' } });
    assert.equal(prompter.asked[0].options.presentation, 'url');
    assert.deepEqual(await postAsk(harness.gateway.askUrl, link('javascript:alert(1)')), { status: 200, body: { action: 'decline' } });
    assert.equal(prompter.asked.length, 1);
  });

  it('shows the name as one line of text, never as markup or another asker', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    const harness = await gateways.start(prompter, []);
    await postAsk(harness.gateway.askUrl, confirm('Go?', { from: '\u001b[31mExtension:\u202e evil\n<b>x</b>' + 'y'.repeat(100) }));
    const { server } = prompter.asked[0].request.source;
    assert.ok(server.startsWith('Terminal: [31mExtension: evil <b>x</b>y'), server);
    assert.equal(server.length, 'Terminal: '.length + 60);
  });

  it('refuses a malformed body or schema with 400 naming the field, before asking anyone', async () => {
    const prompter = new ScriptedPrompter();
    const harness = await gateways.start(prompter, []);
    const url = harness.gateway.askUrl;
    const refusals = [
      [{ question: confirm('x').question }, /from must be a string/],
      [{ from: '  ', question: confirm('x').question }, /from must name the command asking/],
      [{ from: 'git' }, /question must be an object/],
      [{ from: 'git', destructive: 'yes', question: confirm('x').question }, /destructive must be true or false/],
      [{ from: 'git', question: { mode: 'form', message: 'x' } }, /question\.requestedSchema must be an object/],
      [{ from: 'git', question: { mode: 'url', message: 'x' } }, /question\.url must be a string/],
      [{ from: 'git', question: { mode: 'ask', message: 'x', requestedSchema: {} } }, /question\.mode must be "form" or "url"/],
      [{ from: 'git', question: { message: 'x', requestedSchema: { type: 'object', properties: { address: { type: 'object', properties: {} } } } } }, /question\.requestedSchema\.properties\.address: nested objects are not allowed/],
      [{ from: 'git', question: { message: 'x', requestedSchema: { type: 'array' } } }, /question\.requestedSchema\.type: must be "object"/],
      [{ from: 'git', question: { message: 'm'.repeat(10_001), requestedSchema: { type: 'object', properties: {} } } }, /question\.message: /],
    ] as const;
    for (const [body, expected] of refusals) {
      const reply = await postAsk(url, body);
      assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 200));
      assert.match(String(reply.body.error), expected);
    }
    const notJson = await postAsk(url, '{"from":');
    assert.equal(notJson.status, 400);
    assert.equal(prompter.asked.length, 0);
  });

  it('bounds the body: over 256 KiB is 413', async () => {
    const prompter = new ScriptedPrompter();
    const harness = await gateways.start(prompter, []);
    const reply = await postAsk(harness.gateway.askUrl, confirm('x'.repeat(300 * 1024)));
    assert.equal(reply.status, 413);
    assert.match(String((reply.body.error as { message: string }).message), /over the limit of 262144 bytes/);
  });

  it('is guarded like every other path: a token, no foreign Origin, loopback Host', async () => {
    const prompter = new ScriptedPrompter();
    const harness = await gateways.start(prompter, []);
    const url = harness.gateway.askUrl;
    assert.equal((await postAsk(url, confirm('x'), {})).status, 400);
    assert.equal((await postAsk(url, confirm('x'), { authorization: 'Bearer wrong' })).status, 400);
    assert.equal((await postAsk(url, confirm('x'), { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).status, 403);
    assert.equal((await postAsk(url, confirm('x'), { authorization: `Bearer ${TOKEN}`, host: 'evil.example' })).status, 403);
    assert.equal(prompter.asked.length, 0);
  });

  it('withdraws the question when the caller goes away', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    const harness = await gateways.start(prompter, []);
    let req: ClientRequest | undefined;
    const reply = postAsk(harness.gateway.askUrl, confirm('Deploy?'), undefined, (r) => (req = r)).catch((error: Error) => error);
    await waitUntil('the question to be asked', () => prompter.asked.length === 1);
    req!.destroy();
    assert.ok((await reply) instanceof Error);
    const record = await waitUntil('the question to be withdrawn', () => harness.host.store.state.requests.find((r) => r.status === 'abandoned'));
    assert.equal(record.reason, 'the terminal stopped waiting for the answer');
  });

  it('refuses an asker with too many open questions with 429', async () => {
    const prompter = new ScriptedPrompter([], waitForAbort);
    const harness = await gateways.start(prompter, []);
    const open: ClientRequest[] = [];
    const pending = Array.from({ length: 10 }, () => postAsk(harness.gateway.askUrl, confirm('Again?'), undefined, (r) => open.push(r)).catch(() => undefined));
    await waitUntil('ten questions asked', () => prompter.asked.length === 10);
    const eleventh = await postAsk(harness.gateway.askUrl, confirm('Again?'));
    assert.equal(eleventh.status, 429);
    assert.match(String(eleventh.body.error), /Terminal: git already has 10 questions waiting/);
    // Another command is another asker.
    const other = postAsk(harness.gateway.askUrl, confirm('Other?', { from: 'make' }), undefined, (r) => open.push(r)).catch(() => undefined);
    await waitUntil('the other command asked', () => prompter.asked.length === 11);
    for (const r of open) r.destroy();
    await Promise.all([...pending, other]);
  });
});
