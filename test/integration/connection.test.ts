/**
 * The connection layer against the real fixture servers, over stdio and Streamable HTTP
 * (and legacy SSE), with a scripted Prompter standing in for the person.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { findRequest, openRequests } from '../../src/elicitation/store';
import { CallError } from '../../src/mcp/errors';
import { endedByThePerson, isEndedByThePerson } from '../../src/base/ended-by-person';
import { accept, cancel, decline, ScriptedPrompter, waitForAbort } from '../support/scripted-prompter';
import { withHost, type HttpFixture, startHttpFixture, stdioDefinition, toolJson } from '../support/servers';
import { waitUntil, waitUntilGone } from '../support/wait';
import type { ServerDefinition } from '../../src/mcp/config/config';

const transports: Array<{ name: string; definition: () => ServerDefinition }> = [];
let http: HttpFixture;

before(async () => {
  http = await startHttpFixture();
  transports.push({ name: 'stdio', definition: () => stdioDefinition() });
  transports.push({ name: 'Streamable HTTP', definition: () => http.definition() });
});

after(async () => {
  await http?.stop();
});

describe('connection: every fixture, over both transports', () => {
  for (const transport of [{ name: 'stdio' }, { name: 'Streamable HTTP' }]) {
    describe(transport.name, () => {
      const definition = (): ServerDefinition => transports.find((t) => t.name === transport.name)!.definition();

      it('negotiates the 2025 era and lists the tools with their annotations', async () => {
        await withHost(new ScriptedPrompter(), async (host) => {
          const c = await host.connect(definition());
          assert.equal(c.state, 'running');
          assert.equal(c.era, 'legacy');
          assert.equal(c.protocolVersion, '2025-11-25');
          assert.equal(c.transportKind, transport.name === 'stdio' ? 'stdio' : 'streamable-http');
          const names = c.tools.map((t) => t.name);
          for (const tool of ['book_restaurant', 'confirm_action', 'collect_feedback', 'clear_completed', 'pick_instruments', 'invalid_schema', 'two_questions']) {
            assert.ok(names.includes(tool), `${tool} is listed`);
          }
          assert.equal(c.tools.find((t) => t.name === 'clear_completed')?.destructive, true);
          assert.equal(c.tools.find((t) => t.name === 'book_restaurant')?.destructive, false);
        });
      });

      it('book_restaurant: accept sends typed content; the prompt knows the server and tool', async () => {
        const prompter = new ScriptedPrompter([accept({ party_size: 4, date: '2026-12-24', dietary: 'vegan' })]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          const result = await c.callTool('book_restaurant', { restaurant: 'Chez Fixture' });
          assert.deepEqual(toolJson(result), { action: 'accept', content: { party_size: 4, date: '2026-12-24', dietary: 'vegan' } });
          const { request, options } = prompter.asked[0];
          assert.equal(request.message, 'Please provide your reservation details for Chez Fixture:');
          assert.deepEqual(request.source, { server: c.name, tool: 'book_restaurant' });
          assert.equal(options.presentation, 'form');
        });
      });

      it('confirm_action: a required boolean answered false is still an accept', async () => {
        await withHost(new ScriptedPrompter([accept({ confirm: false })]), async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('confirm_action', { action: 'deploy' })), { action: 'accept', content: { confirm: false } });
        });
      });

      it('collect_feedback: the optional comment may be left out', async () => {
        await withHost(new ScriptedPrompter([accept({ rating: '5' })]), async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('collect_feedback', {})), { action: 'accept', content: { rating: '5' } });
        });
      });

      it('clear_completed: a destructive tool\'s empty-schema confirm, declined and cancelled', async () => {
        const prompter = new ScriptedPrompter([decline, cancel, accept()]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('clear_completed', { count: 5 })), { action: 'decline', removed: 0 });
          assert.deepEqual(toolJson(await c.callTool('clear_completed', { count: 5 })), { action: 'cancel', removed: 0 });
          assert.deepEqual(toolJson(await c.callTool('clear_completed', { count: 5 })), { action: 'accept', content: {}, removed: 5 });
          assert.equal(prompter.asked[0].options.presentation, 'confirm');
          assert.deepEqual(prompter.asked[0].request.source, { server: c.name, tool: 'Clear completed todos', destructive: true });
        });
      });

      it('pick_instruments: a titled multi-select', async () => {
        const prompter = new ScriptedPrompter([accept({ instruments: ['piano', 'drums'] })]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('pick_instruments', {})), { action: 'accept', content: { instruments: ['piano', 'drums'] } });
          assert.equal(prompter.asked[0].options.presentation, 'pick-many');
        });
      });

      it('an invalid schema is answered with -32602 naming every offending path; nothing is shown', async () => {
        const prompter = new ScriptedPrompter();
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          const { error } = toolJson(await c.callTool('invalid_schema', {})) as { error: { code: number; message: string; data: { problems: unknown[] } } };
          assert.equal(error.code, -32602);
          assert.equal(
            error.message,
            'Invalid elicitation schema: properties.address: nested objects are not allowed in elicitation schemas; properties.contacts.items.type: must be "string": multi-select options are strings, not "object"',
          );
          assert.equal(error.data.problems.length, 2);
          assert.equal(prompter.asked.length, 0);
          // The connection is fine afterwards.
          assert.deepEqual(toolJson(await c.callTool('echo', { text: 'still here' })), { echo: 'still here' });
        });
      });

      it('our parser sees the schema as sent: pattern and option descriptions survive', async () => {
        const prompter = new ScriptedPrompter([accept({ code: 'ABC-1234', region: 'eu' })]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('voucher', {})), { action: 'accept', content: { code: 'ABC-1234', region: 'eu' } });
          const [code, region] = prompter.asked[0].request.questions;
          assert.equal(code.kind === 'text' && code.pattern, '^[A-Z]{3}-\\d{4}$');
          assert.deepEqual(region.kind === 'single-select' && region.options[0], { value: 'eu', label: 'Europe', description: 'Frankfurt data centre' });
        });
      });

      it('a pattern the answer breaks is refused before anything is sent', async () => {
        const prompter = new ScriptedPrompter([accept({ code: 'abc' }), accept({ code: 'XYZ-0001' })]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('voucher', {})), { action: 'accept', content: { code: 'XYZ-0001' } });
          assert.deepEqual(prompter.asked[1].options.errors, [{ questionId: 'code', message: 'Voucher code must match the pattern ^[A-Z]{3}-\\d{4}$' }]);
        });
      });

      it('the server withdraws its question: the prompt is told to close and the request is abandoned', async () => {
        const prompter = new ScriptedPrompter([waitForAbort]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          const outcome = toolJson(await c.callTool('cancel_elicitation', { afterMs: 300 })) as { error: { message: string } };
          assert.match(outcome.error.message, /no longer needs the answer/);
          assert.equal(prompter.asked[0].options.signal.aborted, true);
          const state = findRequest(host.store.state, prompter.asked[0].request.id)!;
          assert.equal(state.status, 'abandoned');
          assert.match(state.reason!, /withdrew the question: the server no longer needs the answer/);
        });
      });

      it('two questions at once are both asked and both answered', async () => {
        const prompter = new ScriptedPrompter([], (request) =>
          request.questions.length === 0 ? { action: 'accept', answers: {} } : accept({ warehouse: 'wh-lyon' })(request, undefined as never),
        );
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          assert.deepEqual(toolJson(await c.callTool('two_questions', {})), {
            first: { action: 'accept', content: {} },
            second: { action: 'accept', content: { warehouse: 'wh-lyon' } },
          });
          assert.equal(prompter.asked.length, 2);
        });
      });

      it('a tool call does not time out while its question is open; it does when idle', async () => {
        const prompter = new ScriptedPrompter([
          async (request, options) => {
            await new Promise((r) => setTimeout(r, 1200));
            return accept({ quantity: 3 })(request, options);
          },
        ]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition(), { toolTimeoutMs: 400 });
          assert.deepEqual(toolJson(await c.callTool('choose_quantity', {})), { action: 'accept', content: { quantity: 3 } });
          // Progress keeps a long call alive...
          assert.deepEqual(toolJson(await c.callTool('slow', { ms: 1200 })), { waited: 1200 });
          // ...silence does not.
          await assert.rejects(c.callTool('silent_wait', { ms: 3000 }), (e: unknown) =>
            e instanceof CallError && /silent_wait on .* timed out: no answer or progress for 0 s/.test(e.message));
        });
      });

      it('cancelling the call closes the question that belongs to it', async () => {
        const prompter = new ScriptedPrompter([waitForAbort]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          const cancelled = new AbortController();
          const call = c.callTool('book_restaurant', {}, { signal: cancelled.signal });
          await waitUntil('the question to be open', () => openRequests(host.store.state).length === 1);
          cancelled.abort(new Error('You cancelled the call'));
          // The question closes with the cancel itself, before the call's promise settles.
          assert.equal(prompter.asked[0].options.signal.aborted, true);
          // Not the person's Stop: the prompt says why it closed.
          assert.equal(isEndedByThePerson(prompter.asked[0].options.signal.reason), false);
          await assert.rejects(call, /You cancelled the call/);
          await waitUntil('the request to leave the open list', () => openRequests(host.store.state).length === 0);
        });
      });

      it("the person's own Stop of the call closes its question as theirs: no notice that it closed", async () => {
        const prompter = new ScriptedPrompter([waitForAbort]);
        await withHost(prompter, async (host) => {
          const c = await host.connect(definition());
          const stopped = new AbortController();
          const call = c.callTool('book_restaurant', {}, { signal: stopped.signal });
          await waitUntil('the question to be open', () => openRequests(host.store.state).length === 1);
          stopped.abort(endedByThePerson('You stopped book_restaurant'));
          const reason: unknown = prompter.asked[0].options.signal.reason;
          assert.equal(isEndedByThePerson(reason), true, 'marked as the person\'s');
          assert.match((reason as Error).message, /the call to .* ended/);
          await assert.rejects(call, /You stopped book_restaurant/);
        });
      });
    });
  }
});

describe('connection: which call a question belongs to', () => {
  it('one call in flight: the question names its tool, destructive or not', async () => {
    const prompter = new ScriptedPrompter([decline]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition());
      await c.callTool('clear_completed', {});
      assert.deepEqual(prompter.asked[0].request.source, { server: 'fixture', tool: 'Clear completed todos', destructive: true });
    });
  });

  it('several calls in flight: no tool is guessed, and the question is destructive if any of them is', async () => {
    const prompter = new ScriptedPrompter([decline]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition());
      // A call is in flight from the moment callTool is called: no wait is needed for the two to overlap.
      const slow = c.callTool('silent_wait', { ms: 1500 });
      await c.callTool('clear_completed', {});
      assert.deepEqual(prompter.asked[0].request.source, { server: 'fixture', destructive: true });
      assert.ok(host.log.lines.some((l) => l.includes('a question arrived while 2 calls were running')));
      await slow;
    });
  });

  it('a question that may belong to either of two calls stays open until both have ended', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition());
      const first = new AbortController();
      const second = new AbortController();
      const waiting = c.callTool('silent_wait', { ms: 20_000 }, { signal: first.signal }).catch((e: unknown) => e);
      const asking = c.callTool('book_restaurant', {}, { signal: second.signal }).catch((e: unknown) => e);
      await waitUntil('the question', () => prompter.asked.length === 1);
      // A call's end closes its questions synchronously (the abort listeners run inside abort()),
      // so what the question's signal says right after each abort is final.
      first.abort(new Error('stop the first'));
      assert.equal(prompter.asked[0].options.signal.aborted, false, 'the other call may still be waiting for it');
      await waiting;
      assert.equal(prompter.asked[0].options.signal.aborted, false, 'the other call may still be waiting for it');
      second.abort(new Error('stop the second'));
      assert.equal(prompter.asked[0].options.signal.aborted, true);
      await asking;
    });
  });
});

describe('connection: the output log', () => {
  it('shows stderr lines, and at trace level the JSON-RPC traffic both ways; nothing of it otherwise', async () => {
    await withHost(new ScriptedPrompter([decline]), async (host) => {
      host.log.traceEnabled = true;
      const traced = await host.connect(stdioDefinition('traced'));
      await traced.callTool('echo', { text: 'over the wire' });
      const sent = host.log.lines.filter((l) => l.startsWith('trace → '));
      const received = host.log.lines.filter((l) => l.startsWith('trace ← '));
      assert.ok(sent.some((l) => /"method":"tools\/call".*"over the wire"/.test(l)), `the call was traced: ${sent.join('\n')}`);
      assert.ok(received.some((l) => l.includes('over the wire') && l.includes('"result"')), 'its result was traced');
      assert.ok(sent.some((l) => /"method":"(initialize|server\/discover)"/.test(l)), 'the handshake was traced');
      await waitUntil(`the server's stderr in its log (${host.log.lines.filter((l) => l.startsWith('stderr')).join(' | ')})`, () =>
        host.log.lines.includes('stderr fixture elicitation-fixture listening on stdio'));
      host.log.lines.length = 0;
      host.log.traceEnabled = false;
      await traced.callTool('echo', { text: 'quietly' });
      assert.deepEqual(host.log.lines.filter((l) => l.startsWith('trace')), []);
    });
  });
});

describe('connection: failures and fallbacks', () => {
  it('a stdio server that crashes mid-elicitation closes the prompt and says how it ended', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition('crashy'));
      // The call's error says how the process ended and its last words, not only that it is gone.
      await assert.rejects(c.callTool('crash_during_elicitation', { afterMs: 300 }), (e: unknown) =>
        e instanceof CallError && /^crashy disconnected before answering \(the server exited with code 3; last output: .*fixture: crashing on purpose while a question is open\)$/.test(e.message));
      assert.equal(prompter.asked[0].options.signal.aborted, true);
      const request = findRequest(host.store.state, prompter.asked[0].request.id)!;
      assert.equal(request.status, 'abandoned');
      assert.equal(request.reason, 'crashy disconnected');
      await waitUntil('the connection to report the crash', () => c.state === 'error');
      assert.equal(c.crash?.exitCode, 3);
      assert.match(c.detail!, /^the server exited with code 3; last output: .*fixture: crashing on purpose while a question is open$/);
      assert.ok(host.log.lines.includes('stderr fixture: crashing on purpose while a question is open'));
    });
  });

  it('a server that fails to start reports its exit code and stderr', async () => {
    const definition: ServerDefinition = {
      name: 'broken',
      source: { kind: 'user' },
      config: { type: 'stdio', command: process.execPath, args: ['-e', 'console.error("missing API key"); process.exit(2)'], env: {} },
    };
    await withHost(new ScriptedPrompter(), async (host) => {
      await assert.rejects(host.connect(definition), /^CallError: the server exited with code 2; last output: missing API key$/);
    });
  });

  it('a command that does not exist is reported', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      await assert.rejects(
        host.connect({ name: 'nope', source: { kind: 'user' }, config: { type: 'stdio', command: '/nonexistent/server', args: [], env: {} } }),
        /ENOENT|nonexistent/,
      );
    });
  });

  it('"http" falls back to legacy SSE when the server predates Streamable HTTP', async () => {
    const prompter = new ScriptedPrompter([accept({ party_size: 2, date: '2027-01-01' })]);
    const sseOnly = await startHttpFixture(['--sse-only']);
    try {
      await withHost(prompter, async (host) => {
        const c = await host.connect(sseOnly.definition('legacy', 'http', '/sse'));
        assert.equal(c.transportKind, 'sse');
        assert.deepEqual(toolJson(await c.callTool('book_restaurant', {})), { action: 'accept', content: { party_size: 2, date: '2027-01-01', dietary: 'none' } });
      });
    } finally {
      await sseOnly.stop();
    }
  });

  it('"sse" connects with legacy SSE directly', async () => {
    await withHost(new ScriptedPrompter([decline]), async (host) => {
      const c = await host.connect(http.definition('sse', 'sse'));
      assert.equal(c.transportKind, 'sse');
      assert.deepEqual(toolJson(await c.callTool('clear_completed', {})), { action: 'decline', removed: 0 });
    });
  });

  it('an HTTP server that is not there is reported as unreachable (no pointless legacy SSE attempt)', async () => {
    // A port nobody listens on: taken from the system, then let go.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    await withHost(new ScriptedPrompter(), async (host) => {
      await assert.rejects(
        host.connect({ name: 'gone', source: { kind: 'user' }, config: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} } }),
        new RegExp(`^CallError: http://127\\.0\\.0\\.1:${port}/mcp cannot be reached \\(ECONNREFUSED\\)$`),
      );
      assert.ok(!host.log.lines.some((l) => l.includes('trying legacy SSE')), 'no SSE attempt for a server that is not there');
    });
  });

  it('an HTTP server that answers with a server error is reported with its status, not retried as SSE', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      await assert.rejects(host.connect(http.definition('broken', 'http', '/status/500')), /answered HTTP 500/);
      assert.ok(!host.log.lines.some((l) => l.includes('trying legacy SSE')));
    });
  });

  it('URL mode can be turned off: a url request is refused with -32602 and nothing is shown', async () => {
    const prompter = new ScriptedPrompter();
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition(), { urlMode: false });
      // Not advertised: form mode only.
      assert.deepEqual(toolJson(await c.callTool('client_capabilities', {})).elicitation, { form: {} });
      assert.deepEqual(toolJson(await c.callTool('open_review', {})), {
        error: { code: -32602, message: 'URL-mode elicitation is not supported by this client (it is turned off)' },
      });
      assert.equal(prompter.asked.length, 0);
    });
  });

  it('URL mode on: a url request reaches the prompter as a url prompt', async () => {
    const prompter = new ScriptedPrompter([accept()]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition());
      const declared = toolJson(await c.callTool('client_capabilities', {}));
      assert.deepEqual(declared.elicitation, { form: {}, url: {} });
      assert.deepEqual(declared.roots, { listChanged: true });
      assert.equal(declared.sampling, undefined, 'sampling is not declared');
      assert.deepEqual(toolJson(await c.callTool('open_review', {})), { action: 'accept' });
      const { request, options } = prompter.asked[0];
      assert.equal(options.presentation, 'url');
      assert.ok(request.mode === 'url' && request.url === 'https://example.com/review/42');
    });
  });
});

describe('connection: several servers at once', () => {
  it('requests from different servers are open together and none is lost', async () => {
    const release: Array<() => void> = [];
    const prompter = new ScriptedPrompter([], (request) =>
      new Promise((resolve) => {
        release.push(() => resolve(accept(request.questions.length ? { party_size: 5, date: '2026-12-31' } : {})(request, undefined as never) as never));
      }),
    );
    await withHost(prompter, async (host) => {
      const [a, b] = await Promise.all([host.connect(stdioDefinition('alpha')), host.connect(http.definition('beta'))]);
      const calls = [a.callTool('book_restaurant', {}), b.callTool('book_restaurant', {}), a.callTool('clear_completed', {})];
      await waitUntil('three open questions', () => openRequests(host.store.state).length >= 3);
      assert.deepEqual(openRequests(host.store.state).map((r) => r.request.source.server).sort(), ['alpha', 'alpha', 'beta']);
      release.forEach((go) => go());
      const results = (await Promise.all(calls)).map(toolJson);
      assert.deepEqual(results[0], { action: 'accept', content: { party_size: 5, date: '2026-12-31', dietary: 'none' } });
      assert.deepEqual(results[1], { action: 'accept', content: { party_size: 5, date: '2026-12-31', dietary: 'none' } });
      assert.deepEqual(results[2], { action: 'accept', content: {}, removed: 5 });
    });
  });
});

describe('connection: timeouts of our own, and reconnecting', () => {
  it('a question left unanswered past elicitationTimeoutSeconds is withdrawn and the server hears cancel', async () => {
    const prompter = new ScriptedPrompter([waitForAbort]);
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition(), { elicitationTimeoutMs: 300 });
      assert.deepEqual(toolJson(await c.callTool('clear_completed', {})), { action: 'cancel', removed: 0 });
      const state = findRequest(host.store.state, prompter.asked[0].request.id)!;
      assert.deepEqual([state.status, state.reason], ['abandoned', 'no answer within 0 s']);
    });
  });

  it('an HTTP server that dies while its question is open: the question closes and the call says why', async () => {
    const http = await startHttpFixture();
    const prompter = new ScriptedPrompter([waitForAbort]);
    try {
      await withHost(prompter, async (host) => {
        const c = await host.connect(http.definition('remote'));
        const call = c.callTool('crash_during_elicitation', { afterMs: 300 });
        await assert.rejects(call, /remote (disconnected before answering|cannot be reached|is not running)/);
        assert.equal(prompter.asked.length, 1);
        // Closed, not left open for nobody: the question was withdrawn with the reason.
        await waitUntil('the open question to close', () => prompter.asked[0].options.signal.aborted);
        const request = findRequest(host.store.state, prompter.asked[0].request.id)!;
        assert.equal(request.status, 'abandoned');
        assert.equal(request.reason, 'remote disconnected');
      });
    } finally {
      await http.stop();
    }
  });

  it('an HTTP server that goes away is reconnected to when it is back', async () => {
    const first = await startHttpFixture();
    await withHost(new ScriptedPrompter(), async (host) => {
      const c = await host.connect(first.definition('flaky'));
      await first.stop();
      // The next call fails with the reason, whichever noticed first: the call itself, the
      // open event stream (before the call, or while it is in flight). Then the connection
      // retries with backoff.
      await assert.rejects(
        c.callTool('echo', { text: 'x' }),
        /flaky (cannot be reached|is not running: the server (cannot be reached|stopped answering)|disconnected before answering)/,
      );
      // Read fresh each time: the state changes under the test.
      const state = (): string => c.state;
      await waitUntil('the connection to notice', () => state() === 'error');
      const again = await startHttpFixture(['--port', String(first.port)]);
      try {
        await waitUntil(`a reconnection (last detail: ${c.detail})`, () => state() === 'running', 15_000);
        assert.deepEqual(toolJson(await c.callTool('echo', { text: 'back' })), { echo: 'back' });
      } finally {
        await again.stop();
      }
    });
  });
});

describe('connection: lifecycle', () => {
  const pidOf = (lines: readonly string[], name: string): number | undefined => {
    const line = lines.find((l) => l.startsWith(`stderr fixture ${name} pid `));
    return line ? Number(/pid (\d+)/.exec(line)![1]) : undefined;
  };

  it('stop while starting: the start ends stopped, and its process does not live on', async () => {
    await withHost(new ScriptedPrompter(), async (host) => {
      const c = host.connection(stdioDefinition('slow', {}, ['--name', 'slow', '--start-delay', '1500']), { negotiation: 'legacy' });
      const starting = c.start().then(() => 'started', (e: unknown) => e);
      const pid = await waitUntil('the slow server to start its process', () => pidOf(host.log.lines, 'slow'));
      await c.stop();
      const outcome = await starting;
      assert.ok(outcome instanceof CallError && /slow was stopped before it finished starting/.test(outcome.message), String(outcome));
      assert.equal(c.state, 'stopped');
      assert.deepEqual(c.tools, []);
      await waitUntilGone(pid);
    });
  });

  it('after a crash and a stop, the next start goes straight from starting to running', async () => {
    await withHost(new ScriptedPrompter([waitForAbort]), async (host) => {
      const c = await host.connect(stdioDefinition('crashy'));
      await assert.rejects(c.callTool('crash_during_elicitation', { afterMs: 100 }), /crashy disconnected before answering/);
      await c.stop();
      assert.equal(c.state, 'stopped');
      const states: string[] = [];
      c.onDidChange.add(() => states.push(c.state));
      await c.start();
      // Nothing left over from the crash (a timer, a late exit handler) may touch the new start.
      assert.ok(!states.includes('error'), states.join(' → '));
      assert.equal(c.state, 'running');
      assert.equal(c.crash, undefined);
    });
  });

  it('a question that arrives with no call in flight is refused with a JSON-RPC error saying why; nothing is shown', async () => {
    const prompter = new ScriptedPrompter();
    const file = join(mkdtempSync(join(tmpdir(), 'eh-unsolicited-')), 'records.jsonl');
    writeFileSync(file, '');
    await withHost(prompter, async (host) => {
      const c = await host.connect(stdioDefinition('pushy', { FIXTURE_RECORD: file }));
      await c.callTool('ask_unsolicited', { delayMs: 100 });
      const refusal = await waitUntil('the server to hear the refusal', () =>
        readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tool: string; outcome: { error?: { code: number; message: string } } }).find((r) => r.tool === 'ask_unsolicited'));
      assert.equal(refusal.outcome.error?.code, -32600);
      assert.match(refusal.outcome.error?.message ?? '', /no tools\/call, resources\/read or prompts\/get of this client is in flight/);
      assert.equal(prompter.asked.length, 0);
      assert.ok(host.log.lines.some((l) => /warn refused a question that belongs to no call/.test(l)), host.log.lines.join('\n'));
    });
  });
});
