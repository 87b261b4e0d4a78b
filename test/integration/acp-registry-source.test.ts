/**
 * Add Agent…'s ACP Registry through the real fetch, from loopback servers of the test's own
 * serving a registry file of our own (test/fixtures/acp/registry.json; no network): fetched
 * and kept, then read from the kept copy for a day without a request, fetched again after
 * it, the kept copy when the registry fails (said why), the built-in list without one or when
 * turned off; only https (plain http to 127.0.0.1), capped in size and time, a redirect to an
 * address not allowed refused.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchRegistryText, loadRegistry, REGISTRY_FRESH_MS, REGISTRY_MAX_BYTES, registryUrl } from '../../src/ui/agents/acp-registry-source';

const REGISTRY = readFileSync(join(__dirname, '../fixtures/acp/registry.json'), 'utf8');
const PLATFORM = 'linux-x86_64';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function serve(host: string, handler: Handler): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe("Add Agent…'s ACP Registry: fetched, kept, and the fallbacks", function () {
  this.timeout(20_000);
  let dir: string;
  let cacheFile: string;
  let status: number;
  let body: string | Buffer;
  let server: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    server = await serve('127.0.0.1', (request, response) => {
      if (request.url === '/slow') return; // never answers
      if (request.url === '/elsewhere') {
        response.writeHead(302, { location: `${elsewhere.url}/registry.json` }).end();
        return;
      }
      if (request.url === '/chunked') {
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        for (let i = 0; i < REGISTRY_MAX_BYTES / chunk.length + 2; i++) response.write(chunk);
        response.end();
        return;
      }
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
    elsewhere = await serve('127.0.0.2', (_request, response) => response.writeHead(200).end(REGISTRY));
  });
  let elsewhere: Awaited<ReturnType<typeof serve>>;
  after(async () => {
    await server.close();
    await elsewhere.close();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'eh-registry-'));
    cacheFile = join(dir, 'storage', 'acp-registry.json');
    status = 200;
    body = REGISTRY;
    server.requests.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fetches and keeps it; for a day the kept copy answers without a request; after that it is fetched again', async () => {
    const url = `${server.url}/registry.json`;
    const now = Date.parse('2026-11-20T10:00:00Z');
    const first = await loadRegistry({ url, cacheFile, platform: PLATFORM, now });
    assert.deepEqual(first.origin, { kind: 'registry', fetchedAt: now });
    assert.deepEqual(first.read?.agents.map((a) => a.id), ['alpha-agent', 'beta-py', 'gamma-bin', 'delta-both', 'many-settings']);
    assert.equal(first.read?.problems.length, 5);
    assert.ok(existsSync(cacheFile), 'kept in the storage folder');

    const later = await loadRegistry({ url, cacheFile, platform: PLATFORM, now: now + REGISTRY_FRESH_MS - 1 });
    assert.deepEqual(later.origin, { kind: 'cache', fetchedAt: now });
    assert.equal(server.requests.length, 1, 'no second request within the day');

    const nextDay = await loadRegistry({ url, cacheFile, platform: PLATFORM, now: now + REGISTRY_FRESH_MS + 1 });
    assert.equal(nextDay.origin.kind, 'registry');
    assert.equal(server.requests.length, 2);
  });

  it('when the registry fails: the kept copy, however old, saying why; without one the built-in list, saying why; a retry waits', async () => {
    const url = `${server.url}/registry.json`;
    const now = Date.parse('2026-11-20T10:00:00Z');
    await loadRegistry({ url, cacheFile, platform: PLATFORM, now });
    status = 500;
    body = 'down';
    const stale = await loadRegistry({ url, cacheFile, platform: PLATFORM, now: now + 3 * REGISTRY_FRESH_MS });
    assert.deepEqual(stale.origin, { kind: 'cache', fetchedAt: now, why: 'the ACP Registry could not be read (HTTP 500)' });
    assert.equal(stale.read?.agents.length, 5);
    // Just failed: not asked again at once.
    const again = await loadRegistry({ url, cacheFile, platform: PLATFORM, now: now + 3 * REGISTRY_FRESH_MS + 1000 });
    assert.equal(again.origin.kind === 'cache' && again.origin.why, 'the last try to read it failed a few minutes ago');
    assert.equal(server.requests.length, 2);

    rmSync(cacheFile);
    const none = await loadRegistry({ url, cacheFile, platform: PLATFORM, now });
    assert.deepEqual(none, { origin: { kind: 'built-in', why: 'the ACP Registry could not be read (HTTP 500)' } });
    // A body that is no registry is not kept.
    status = 200;
    body = '{"agents": [{"id": "Bad"}]}';
    const bad = await loadRegistry({ url, cacheFile, platform: PLATFORM, now: now + 60 * 60 * 1000 });
    assert.equal(bad.origin.kind, 'built-in');
    assert.match(bad.origin.kind === 'built-in' ? bad.origin.why : '', /could not be read \(it lists no agent that can run here \("Bad": id must be lowercase/);
  });

  it('turned off (empty): the built-in list, and nothing is fetched', async () => {
    const off = await loadRegistry({ url: '', cacheFile, platform: PLATFORM });
    assert.deepEqual(off, { origin: { kind: 'built-in', why: 'reading the ACP Registry is turned off (elicitationHost.agentRegistryUrl is empty)' } });
    assert.equal(existsSync(cacheFile), false);
  });

  it('https only (plain http to 127.0.0.1), no credentials in the address; capped in size and time; a redirect elsewhere refused', async () => {
    assert.equal(typeof registryUrl('https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json'), 'object');
    assert.equal(typeof registryUrl('http://127.0.0.1:9/r.json'), 'object');
    assert.match(registryUrl('http://cdn.agentclientprotocol.com/registry.json') as string, /must start with https:\/\//);
    assert.match(registryUrl('file:///etc/passwd') as string, /must start with https:\/\/.*not file:/);
    assert.match(registryUrl('https://user:secret@example.com/r.json') as string, /user name or password/);
    assert.match(registryUrl('not a url') as string, /is not an address/);
    await assert.rejects(fetchRegistryText('http://example.com/r.json'), /must start with https/);

    body = Buffer.alloc(REGISTRY_MAX_BYTES + 1, 0x20);
    await assert.rejects(fetchRegistryText(`${server.url}/big`), /bytes; at most 2,097,152 are read/);
    await assert.rejects(fetchRegistryText(`${server.url}/chunked`), /larger than 2,097,152 bytes/);
    await assert.rejects(fetchRegistryText(`${server.url}/slow`, 300), /timeout|aborted/i);
    await assert.rejects(fetchRegistryText(`${server.url}/elsewhere`), /redirected to an address not allowed: the address must start with https/);
    assert.equal(elsewhere.requests.length, 1, 'the redirect was followed, then refused');
    body = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    await assert.rejects(fetchRegistryText(`${server.url}/latin1`), /encoded|invalid|decode/i);
  });
});
