/**
 * URL-mode elicitation with completion notifications, the -32042 retry, hostile links, and
 * multi round-trip (input-required) calls in both protocol eras, against real servers.
 */
import { strict as assert } from 'node:assert';
import { checkUrl } from '../../src/elicitation/url-check';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Outcome } from '../../src/elicitation/broker';
import type { ServerDefinition } from '../../src/mcp/config/config';
import { CallError } from '../../src/mcp/errors';
import type { CallProgress } from '../../src/mcp/ports';
import { accept, cancel, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { withHost, FIXTURES, stdioDefinition, toolJson } from '../support/servers';
import { waitUntil } from '../support/wait';

const dir = mkdtempSync(join(tmpdir(), 'eh-links-'));

function recordFile(name: string): string {
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, '');
  return file;
}

function records(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

function server(name: string, script: string, env: Record<string, string> = {}, args: string[] = []): ServerDefinition {
  return { name, source: { kind: 'user' }, config: { type: 'stdio', command: process.execPath, args: [join(FIXTURES, script), ...args], env } };
}

describe('URL mode (MCP 2025-11-25)', () => {
  it('accept is answered when the link is opened; the completion notification tells the person', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition('reviews'));
      const outcome = toolJson(await c.callTool('review_change', { autoCompleteMs: 200 }));
      assert.equal(outcome.action, 'accept');
      const { request, options } = prompter.asked[0];
      assert.equal(options.presentation, 'url');
      assert.ok(request.mode === 'url' && /^http:\/\/127\.0\.0\.2:\d+\/review\//.test(request.url));
      await waitUntil('the completion', () => host.urlFlow.completions.length === 1);
      assert.deepEqual(host.urlFlow.completions, [{ server: 'reviews', message: 'Review and approve change #42' }]);
    });
  });

  it('a completion for an unknown elicitation is ignored and logged', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      const c = await host.connect(stdioDefinition());
      await c.callTool('complete_unknown', {});
      await waitUntil('the log line', () => host.log.lines.some((l) => l.includes('ignored a completion notification for an elicitation this client does not know: no-such-elicitation')));
      assert.deepEqual(host.urlFlow.completions, []);
    });
  });

  it('hostile links never reach the person: the server hears decline', async () => {
    const refused: string[] = [];
    const prompter = new ScriptedPrompter();
    await withHost(prompter, { onLinkRefused: (_s, url, reason) => refused.push(`${url.slice(0, 60)} | ${reason}`) }, async (host) => {
      const c = await host.connect(stdioDefinition());
      for (const kind of ['javascript', 'data', 'file', 'vscode', 'command', 'malformed', 'long']) {
        assert.deepEqual(toolJson(await c.callTool('hostile_link', { kind })), { action: 'decline' }, kind);
      }
      assert.equal(prompter.asked.length, 0, 'nothing was shown');
      assert.equal(refused.length, 7);
      assert.match(refused[0], /^javascript:alert\(document\.cookie\) \| links with the scheme "javascript:" are not opened/);
    });
  });

  it('links that only deserve a warning reach the prompt with their warnings', async () => {
    const prompter = new ScriptedPrompter([decline, decline, decline, decline, decline]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition());
      for (const kind of ['userinfo', 'badUserinfo', 'idn', 'ip', 'http']) {
        assert.deepEqual(toolJson(await c.callTool('hostile_link', { kind })), { action: 'decline' }, kind);
      }
      const urls = prompter.asked.map(({ request }) => (request.mode === 'url' ? request.url : ''));
      assert.deepEqual(urls, [
        'https://bank.example.com@evil.example/login',
        'https://%E0%A4@evil.example/login',
        'https://xn--pple-43d.com/account',
        'https://192.0.2.7/pay',
        'http://plain.example.com/review',
      ]);
      // What the prompt shows beside each link (src/ui/links/url-prompt.ts renders these).
      const warnings = urls.map((url) => {
        const check = checkUrl(url);
        return check.ok ? check.warnings.join(' ') : check.reason;
      });
      const expected = [/puts "bank\.example\.com" before an @ sign/, /puts "%E0%A4" before an @ sign/, /non-ASCII characters/, /bare IP address \(192\.0\.2\.7\)/, /plain http/];
      expected.forEach((pattern, i) => assert.match(warnings[i], pattern, urls[i]));
    });
  });
});

describe('a server that negotiated MCP 2025-06-18 (form mode only)', () => {
  it('gets form-mode behaviour: a URL-mode request is refused with -32602, never shown', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    await withHost(prompter, async (host) => {
      const old = await host.connect(server('old', 'raw-input-required.js', {}, ['--protocol', '2025-06-18']));
      assert.equal(old.protocolVersion, '2025-06-18');
      const answer = toolJson(await old.callTool('asks_link', {})) as { error?: { code: number; message: string } };
      assert.equal(answer.error?.code, -32602);
      assert.match(answer.error?.message ?? '', /URL-mode elicitation is not part of MCP 2025-06-18/);
      assert.equal(prompter.asked.length, 0, 'nothing was shown');
      // The same request from a 2025-11-25 server is a link prompt.
      const current = await host.connect(server('current', 'raw-input-required.js'));
      assert.deepEqual(toolJson(await current.callTool('asks_link', {})), { jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept' } });
      assert.equal(prompter.asked[0].request.mode, 'url');
    });
  });
});

describe('the URL-required error (-32042)', () => {
  it('presents the link, waits for the completion, and retries the call once', async () => {
    const file = recordFile('auth-once');
    const prompter = new ScriptedPrompter([accept()]);
    await withHost(prompter, async (host) => {
      host.urlFlow.finish = 'never'; // the person never clicks "finished": the completion must carry it
      const c = await host.connect(stdioDefinition('auth', { FIXTURE_RECORD: file }));
      const result = toolJson(await c.callTool('needs_authorization', { autoCompleteMs: 300 }));
      assert.deepEqual(result, { authorized: true });
      assert.equal(prompter.asked.length, 1);
      assert.equal(prompter.asked[0].request.message, 'Connect your account to continue');
      assert.deepEqual(records(file).filter((r) => r.tool === 'needs_authorization:called').map((r) => r.outcome), [{ authorized: false }, { authorized: true }]);
    });
  });

  it('"I have finished in the browser" also triggers the retry', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition('auth2'));
      // No completion ever comes; the person's word is enough to retry, and the retry fails again.
      await assert.rejects(c.callTool('needs_authorization', {}), (e: unknown) =>
        e instanceof CallError && e.code === -32042 && /auth2 still requires a link to be visited for needs_authorization .*; not retrying again/.test(e.message));
      assert.equal(host.urlFlow.waited.length, 1);
    });
  });

  it('a retry that fails with -32042 again stops: never a loop', async () => {
    const file = recordFile('auth-twice');
    const prompter = new ScriptedPrompter([], accept());
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition('auth3', { FIXTURE_RECORD: file }));
      await assert.rejects(c.callTool('needs_authorization', { failTwice: true, autoCompleteMs: 100 }), /not retrying again/);
      assert.equal(records(file).filter((r) => r.tool === 'needs_authorization:called').length, 2, 'called exactly twice');
      assert.equal(prompter.asked.length, 1);
    });
  });

  it('declining the link ends the call without a retry', async () => {
    await withHost(new ScriptedPrompter([decline]), async (host) => {
      const c = await host.connect(stdioDefinition('auth4'));
      await assert.rejects(c.callTool('needs_authorization', {}), /needs you to open .*; you chose to decline, so it was not retried/);
    });
  });
});

describe('multi round-trip requests (SEP-2322)', () => {
  const tripAnswers = (): ScriptedPrompter =>
    new ScriptedPrompter([accept({ destination: 'Lisbon', nights: 4 }), accept()]);

  for (const era of ['auto', 'legacy'] as const) {
    it(`a 2026-07-28 server that asks twice (a form, then a confirm), over a ${era === 'auto' ? '2026-07-28' : '2025'} connection`, async () => {
      const prompter = tripAnswers();
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('modern', 'modern.js'), { negotiation: era });
        assert.equal(c.protocolVersion, era === 'auto' ? '2026-07-28' : '2025-11-25');
        const progress: CallProgress[] = [];
        const result = toolJson(await c.callTool('plan_trip', { traveller: 'Ada' }, { onProgress: (p) => progress.push(p) }));
        assert.deepEqual(result, { destination: 'Lisbon', nights: 4, booked: true });
        assert.deepEqual(prompter.asked.map((a) => [a.request.message, a.options.presentation]), [
          ['Where should Ada go?', 'form'],
          ['Book 4 nights in Lisbon?', 'confirm'],
        ]);
        assert.deepEqual(prompter.asked.map((a) => a.request.source.tool), ['plan_trip', 'plan_trip'], 'the question knows its tool call');
        if (era === 'auto') assert.deepEqual(progress.filter((p) => p.round).map((p) => p.round), [1, 2], 'the progress shows the rounds');
      });
    });
  }

  it('a decline is sent to the server as the answer, not swallowed', async () => {
    await withHost(new ScriptedPrompter([decline]), async (host) => {
      const c = await host.connect(server('modern', 'modern.js'));
      assert.deepEqual(toolJson(await c.callTool('plan_trip', {})), { ended: { kind: 'elicit', action: 'decline' } });
    });
  });

  it('cancelling the call in its second round ends the whole call: the open question closes, nothing is retried', async () => {
    const file = recordFile('raw-cancel');
    const prompter = new ScriptedPrompter([accept({ version: '2.0.0' }), waitForAbort, accept({ version: '3.0.0' }), decline]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(server('raw', 'raw-input-required.js', { FIXTURE_RECORD: file }));
      const cancelled = new AbortController();
      const call = c.callTool('spec_two_rounds', { note: 'x' }, { signal: cancelled.signal });
      await waitUntil('the second round on screen', () => prompter.asked.length >= 2, 5000);
      assert.equal(prompter.asked[1].request.message, 'Tag 2.0.0 now?', 'the second round is on screen');
      cancelled.abort(new Error('You cancelled spec_two_rounds'));
      await assert.rejects(call, /You cancelled spec_two_rounds/);
      assert.equal(prompter.asked[1].options.signal.aborted, true, 'its question closed');
      // A second call is the barrier: the server reads its input in order, so a retry of the
      // cancelled round, had one been sent, would be recorded before this call's.
      await c.callTool('spec_two_rounds', { note: 'y' });
      const sent = records(file).map((r) => JSON.stringify(r));
      assert.equal(sent.length, 3, `the cancelled call's first round, then the second call's two: ${sent.join(' | ')}`);
      assert.match(sent[0], /2\.0\.0/);
      assert.match(sent[1], /3\.0\.0/, 'nothing of the cancelled call came between');
    });
  });

  it('a server that always asks again is stopped at the round cap', async () => {
    const prompter = new ScriptedPrompter([], accept());
    await withHost(prompter, async (host) => {
      const c = await host.connect(server('modern', 'modern.js'), { maxRounds: 3 });
      await assert.rejects(c.callTool('endless', {}), /modern asked for more input 4 times for endless; stopped at the limit of 3 rounds/);
      assert.equal(prompter.asked.length, 3);
    });
  });

  it('roots/list is answered with the workspace folders', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      const c = await host.connect(server('modern', 'modern.js'));
      assert.deepEqual(toolJson(await c.callTool('where_am_i', {})), { kind: 'roots', roots: [{ uri: 'file:///workspace', name: 'workspace' }] });
    });
  });

  it('a change of workspace folders is announced (roots/list_changed) and the next roots/list sees it', async () => {
    let folders = [{ uri: 'file:///workspace', name: 'workspace' }];
    await withHost(new ScriptedPrompter(), { roots: () => folders }, async (host) => {
      const c = await host.connect(server('fixture', 'stdio.js'));
      assert.deepEqual(toolJson(await c.callTool('watch_roots', {})), { changes: 0, roots: folders });
      folders = [...folders, { uri: 'file:///second', name: 'second' }];
      c.rootsChanged();
      // A notification has no answer: wait until the server has counted it.
      const seen = await waitUntil('the server to count the change', async () => {
        const now = toolJson(await c.callTool('watch_roots', {})) as { changes: number };
        return now.changes > 0 && now;
      }, 5_000);
      assert.deepEqual(seen, { changes: 1, roots: folders });
    });
  });

  it('URL mode in the 2026-07-28 way: open, say "finished", and the retry tells the outcome', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(server('modern', 'modern.js'));
      assert.deepEqual(toolJson(await c.callTool('review_link', {})), { kind: 'elicit', action: 'accept' });
      assert.deepEqual(host.urlFlow.waited, ['https://example.com/release/9']);
      host.urlFlow.finish = false;
      const again = new ScriptedPrompter([accept()]);
      await withHost(again, async (other) => {
        other.urlFlow.finish = false;
        const c2 = await other.connect(server('modern', 'modern.js'));
        await assert.rejects(c2.callTool('review_link', {}), /You cancelled review_link while it waited for the browser/);
      });
    });
  });

  describe('a raw 2025-era server that returns input-required results anyway', () => {
    it('the specification\'s shape: answers every request, echoes requestState byte for byte', async () => {
      const file = recordFile('raw-spec');
      const prompter = new ScriptedPrompter([accept({ version: '1.2.3' }), accept()]);
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js', { FIXTURE_RECORD: file }));
        assert.equal(c.protocolVersion, '2025-11-25');
        const result = toolJson(await c.callTool('spec_two_rounds', { note: 'x' }));
        assert.deepEqual(result, { done: true, state: 'round-2:1.2.3', responses: { sure: { action: 'accept', content: {} } } });
        const retries = records(file).map((r) => r.retry);
        assert.deepEqual(retries[0], {
          arguments: { note: 'x' },
          inputResponses: { details: { action: 'accept', content: { version: '1.2.3' } }, where: { roots: [{ uri: 'file:///workspace', name: 'workspace' }] } },
          requestState: 'round-1 {"opaque": true}',
        });
        // The pattern reached our parser: the raw schema, not a stripped copy.
        const [version] = prompter.asked[0].request.questions;
        assert.equal(version.kind === 'text' && version.pattern, '^\\d+\\.\\d+\\.\\d+$');
      });
    });

    it('the draft shape: one form of the requests, answered as [{id, value}]', async () => {
      const prompter = new ScriptedPrompter([accept({ city: 'Lyon', days: 3 })]);
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js'));
        const result = toolJson(await c.callTool('draft_city', {}));
        assert.deepEqual(result, { forecast: 'sunny', responses: [{ id: 'city', value: 'Lyon' }, { id: 'days', value: 3 }], state: 'opaque-token-abc-123' });
        const { request, options } = prompter.asked[0];
        assert.equal(options.presentation, 'form');
        assert.equal(request.message, 'Need the city before I can fetch the forecast.');
        assert.deepEqual(request.questions.map((q) => [q.id, q.kind, q.required]), [['city', 'text', true], ['days', 'integer', false]]);
      });
    });

    it('a draft round of one request is still one form, answered as [{id, value}]', async () => {
      const prompter = new ScriptedPrompter([accept({ city: 'Porto' })]);
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js'));
        assert.deepEqual(toolJson(await c.callTool('draft_one', {})), { responses: [{ id: 'city', value: 'Porto' }], state: 'one' });
        assert.equal(prompter.asked[0].options.presentation, 'form', 'not an input box: the round is a form of its requests');
      });
    });

    it('ending a draft round ends the call', async () => {
      await withHost(new ScriptedPrompter([cancel]), async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js'));
        const result = await c.callTool('draft_city', {});
        assert.equal((result as unknown as { isError: boolean }).isError, true);
      });
    });

    it('a request for sampling (a capability this client never declared) ends the call with that reason', async () => {
      const prompter = new ScriptedPrompter();
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js'));
        await assert.rejects(c.callTool('asks_sampling', {}), (error: unknown) => {
          assert.ok(error instanceof CallError);
          assert.equal(error.code, -32021);
          assert.match(error.message, /raw asked for sampling \(an LLM completion\), which this client does not offer/);
          return true;
        });
        assert.equal(prompter.asked.length, 0);
      });
    });

    it('a cancelled call\'s late input-required answer is never read by a later call, even after a restart', async () => {
      const file = recordFile('late');
      // No answers scripted: a question here would be the stale one.
      const prompter = new ScriptedPrompter();
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js', { FIXTURE_RECORD: file }), { negotiation: 'legacy' });
        const cancelled = new AbortController();
        const call = c.callTool('late_input_required', { ms: 300 }, { signal: cancelled.signal });
        await waitUntil('the server to receive the call', () => records(file).some((r) => r.received));
        cancelled.abort(new Error('You cancelled late_input_required'));
        await assert.rejects(call, /You cancelled late_input_required/);
        await waitUntil('the late answer to be sent', () => records(file).some((r) => r.responded));
        // Responses arrive in order on stdio: once this call is answered, the late one has been read.
        assert.equal(((await c.callTool('half_empty', {})) as unknown as { content: Array<{ text: string }> }).content[0].text, 'half-shaped: empty requests');
        // A new client numbers its requests from 0 again: the late answer's id comes round.
        await c.restart();
        for (let i = 0; i < 4; i++) assert.deepEqual(toolJson(await c.callTool('plain', {})), { plain: true }, `call ${i}`);
        assert.equal(prompter.asked.length, 0, 'the stale question was never asked');
      });
    });

    it('half-shaped results are shown as ordinary results, and the cap stops a server that never stops asking', async () => {
      const prompter = new ScriptedPrompter([], (() => ({ action: 'accept', answers: {} })) as () => Outcome);
      await withHost(prompter, async (host) => {
        const c = await host.connect(server('raw', 'raw-input-required.js'), { maxRounds: 2 });
        const empty = (await c.callTool('half_empty', {})) as unknown as { content: Array<{ text: string }> };
        assert.equal(empty.content[0].text, 'half-shaped: empty requests');
        const noState = (await c.callTool('half_no_state', {})) as unknown as { content: Array<{ text: string }> };
        assert.equal(noState.content[0].text, 'half-shaped: no state');
        assert.equal(prompter.asked.length, 0);
        await assert.rejects(c.callTool('always_more', {}), /stopped at the limit of 2 rounds/);
      });
    });
  });
});
