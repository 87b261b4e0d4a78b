/**
 * Signing in to a protected server (test/fixtures/servers/protected.ts: a fixture MCP server
 * behind its own OAuth 2.1 authorization server) with the runner: dynamic registration, a
 * client registered beforehand, a client ID metadata document, the browser step without a
 * browser, the token cache across runs, a step-up for more scope, a revoked token, and
 * access tokens that expire (refreshed without a new sign-in). Nothing secret is printed.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Finished, runCli } from '../support/cli-run';
import { type HttpFixture, requireFixtures, startHttpFixture } from '../support/servers';
import { waitUntil } from '../support/wait';


function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Finished> {
  requireFixtures();
  return runCli(args, { env });
}

describe('the runner signs in to a server that answers 401', function () {
  this.timeout(30_000);
  let dir: string;
  let server: HttpFixture;
  let recordFile: string;
  const endpoints = (): string[] => (existsSync(recordFile) ? readFileSync(recordFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => { const r = JSON.parse(l) as { endpoint: string; grant?: string }; return r.grant ? `${r.endpoint}:${r.grant}` : r.endpoint; }) : []);
  const url = (): string => `http://127.0.0.1:${server.port}/mcp`;
  const authorizations = (): Array<{ client?: string; scope?: string | null }> =>
    readFileSync(recordFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { endpoint: string; client?: string; scope?: string | null }).filter((r) => r.endpoint === 'authorize');

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eh-sign-in-'));
    recordFile = join(dir, 'record.jsonl');
  });
  afterEach(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers, signs in (--browser fetch), calls the tool; the next run uses the token cache and signs in no more', async () => {
    server = await startHttpFixture(['--record', recordFile], {}, 'protected.js');
    const cache = join(dir, 'tokens.json');
    const first = await run(['call', '--browser', 'fetch', '--token-cache', cache, '--args', '{"text":"hi"}', url(), 'echo']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /✓ echo: .*hi/);
    assert.deepEqual(endpoints(), ['register', 'authorize', 'token:authorization_code']);
    assert.equal(statSync(cache).mode & 0o777, 0o600);
    const tokens = JSON.parse(readFileSync(cache, 'utf8')) as Record<string, string>;
    const saved = JSON.parse(Object.values(tokens)[0]) as { tokens: { access_token: string; refresh_token: string } };
    for (const secret of [saved.tokens.access_token, saved.tokens.refresh_token]) {
      assert.ok(!first.stdout.includes(secret) && !first.stderr.includes(secret), 'no token is printed');
    }
    const second = await run(['call', '--browser', 'fetch', '--token-cache', cache, '--args', '{"text":"again"}', url(), 'echo']);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(endpoints(), ['register', 'authorize', 'token:authorization_code'], 'the cached token did it: no registration, no sign-in');
  });

  it('by default the system browser signs in, and comes back to the runner on a loopback address', async () => {
    server = await startHttpFixture(['--record', recordFile], {}, 'protected.js');
    // The "system browser": an xdg-open that loads the page and follows its redirects, as a browser does.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const opened = join(dir, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(opened)}, process.argv[2]);\nfetch(process.argv[2]).then((r) => r.text()).then((t) => require('fs').appendFileSync(${JSON.stringify(opened)}, '\\n' + t));\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const result = await run(['call', '--args', '{"text":"hi"}', url(), 'echo'], { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Sign in in your browser: http:\/\/127\.0\.0\.1:\d+\/authorize\?\S*redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/);
    assert.match(result.stdout, /✓ echo: .*hi/);
    await waitUntil('the browser to show the page it was sent back to', () => /Signed in: you can close this tab/.test(readFileSync(opened, 'utf8')) || undefined, 5000);
  });

  it("once signed in, the server's questions reach the person as any server's", async () => {
    server = await startHttpFixture(['--record', recordFile], {}, 'protected.js');
    const result = await run(['call', '--json', '--browser', 'fetch', '--accept-defaults', url(), 'pick_instruments']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; result?: { structuredContent?: unknown; content?: Array<{ text?: string }> } });
    assert.ok(lines.some((l) => l.type === 'elicitation'), `the question was asked: ${result.stdout}`);
    const done = lines.find((l) => l.type === 'result');
    assert.match(JSON.stringify(done?.result), /piano/);
  });

  it('a revoked token: signed in again, as the same registered client', async () => {
    server = await startHttpFixture(['--record', recordFile], {}, 'protected.js');
    const cache = join(dir, 'tokens.json');
    assert.equal((await run(['call', '--browser', 'fetch', '--token-cache', cache, '--args', '{"text":"hi"}', url(), 'echo'])).code, 0);
    await fetch(`http://127.0.0.1:${server.port}/test/revoke-all`, { method: 'POST' });
    const after = await run(['call', '--browser', 'fetch', '--token-cache', cache, '--args', '{"text":"hi"}', url(), 'echo']);
    assert.equal(after.code, 0, after.stderr);
    // The refresh token was revoked too: refused, then a new sign-in; no second registration.
    assert.deepEqual(endpoints(), ['register', 'authorize', 'token:authorization_code', 'token:refresh_token', 'authorize', 'token:authorization_code']);
  });

  it('an access token that has expired is refreshed, without a new sign-in', async () => {
    server = await startHttpFixture(['--record', recordFile, '--token-ttl', '0'], {}, 'protected.js');
    const run1 = await run(['call-all', '--browser', 'fetch', '--accept-defaults', '--args', '{"text":"hi"}', url()]);
    // Every request after the first sign-in finds its token expired: each is refreshed once.
    assert.ok(endpoints().filter((e) => e === 'authorize').length === 1, `one sign-in: ${endpoints().join(', ')}`);
    assert.ok(endpoints().includes('token:refresh_token'), `refreshed: ${endpoints().join(', ')}`);
    assert.doesNotMatch(run1.stderr, /needs you to sign in|not authorized/);
  });

  it('a client registered beforehand (--client-id, --client-secret): no registration, the secret authenticates it and is printed nowhere', async () => {
    const secret = 's3cr3t-of-the-runner';
    server = await startHttpFixture(['--record', recordFile, '--client', `eh-runner:${secret}`, '--no-registration'], {}, 'protected.js');
    const result = await run(['call', '--browser', 'fetch', '--client-id', 'eh-runner', '--client-secret', secret, '--args', '{"text":"hi"}', url(), 'echo']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(endpoints().filter((e) => e === 'register' || e.startsWith('token')), ['token:authorization_code']);
    assert.deepEqual(authorizations().map((a) => a.client), ['pre-registered']);
    assert.ok(!`${result.stdout}${result.stderr}`.includes(secret), 'the secret is printed nowhere');
    const wrong = await run(['call', '--browser', 'fetch', '--client-id', 'eh-runner', '--client-secret', 'not-it', '--args', '{"text":"hi"}', url(), 'echo']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /invalid_client/);
  });

  it('a client ID metadata document (--client-metadata-url): its address is the client ID, nothing is registered', async () => {
    server = await startHttpFixture(['--record', recordFile, '--cimd', '--no-registration'], {}, 'protected.js');
    const result = await run(['call', '--browser', 'fetch', '--client-metadata-url', 'https://client.example/elicitation-host.json', '--args', '{"text":"hi"}', url(), 'echo']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(authorizations().map((a) => a.client), ['metadata-document']);
    assert.ok(!endpoints().includes('register'), `no registration: ${endpoints().join(', ')}`);
  });

  it('a call that needs more scope (403 insufficient_scope) signs in again for it, and goes through', async () => {
    server = await startHttpFixture(['--record', recordFile, '--step-up', 'tools:call'], {}, 'protected.js');
    const result = await run(['call', '--browser', 'fetch', '--json', '--args', '{"text":"stepped up"}', url(), 'echo']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /stepped up/);
    const scopes = authorizations().map((a) => a.scope ?? '');
    assert.equal(scopes.length, 2, `a sign-in, then a step-up: ${JSON.stringify(scopes)}`);
    assert.doesNotMatch(scopes[0], /tools:call/);
    assert.deepEqual(scopes[1].split(' ').sort(), ['mcp', 'tools:call']);
  });

  it('a sign-in that cannot complete without a person says so, and the run exits 1', async () => {
    server = await startHttpFixture([], {}, 'protected.js');
    // The authorization endpoint refuses a redirect URI nobody registered: no redirect back.
    const result = await run(['call', '--browser', 'fetch', '--client-id', 'never-registered', url(), 'echo']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /answered 400 without sending the browser on: this sign-in needs a person \(run without --browser fetch\)/);
  });
});
