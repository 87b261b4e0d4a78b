import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStore, memoryStore } from '../../src/cli/token-cache';

describe("the runner's sign-in store", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'eh-token-cache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('--token-cache keeps what is set for the next run, in a file only its owner can read', async () => {
    const path = join(dir, 'tokens.json');
    await fileStore(path).set('mcp-oauth:https://a.example/mcp', '{"tokens":{"access_token":"t"}}');
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const next = fileStore(path);
    assert.equal(await next.get('mcp-oauth:https://a.example/mcp'), '{"tokens":{"access_token":"t"}}');
    assert.equal(await next.get('toString'), undefined, 'only its own keys');
    await next.delete('mcp-oauth:https://a.example/mcp');
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {});
  });

  it('a cache that is not JSON is refused with what to do, never overwritten', async () => {
    const path = join(dir, 'tokens.json');
    writeFileSync(path, 'not json');
    await assert.rejects(fileStore(path).set('k', 'v'), /is not JSON: .*remove it to sign in again/);
    assert.equal(readFileSync(path, 'utf8'), 'not json');
  });

  it('without a cache, sign-ins last as long as the run', async () => {
    const store = memoryStore();
    await store.set('k', 'v');
    assert.equal(await store.get('k'), 'v');
    await store.delete('k');
    assert.equal(await store.get('k'), undefined);
  });
});
