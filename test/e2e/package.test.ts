/**
 * The .vsix that `npm run package` builds (and the UI scenarios install): what ships.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { requireBuilt, VSIX } from './context';

/** The entries of a zip file, from its central directory. */
function zipEntries(file: string): Map<string, Buffer> {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(offset + 10);
    const compressed = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extra = zip.readUInt16LE(offset + 30);
    const comment = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : data);
    offset += 46 + nameLength + extra + comment;
  }
  return entries;
}

describe('the packaged extension', () => {
  it('holds the bundles, media, the README and its images, the manifest, LICENSE and the API\'s elicitation-host.d.ts, and nothing of the sources, tests or node_modules', () => {
    requireBuilt(VSIX);
    const names = [...zipEntries(VSIX).keys()].filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length)).sort();
    assert.deepEqual(names, [
      'LICENSE.txt',
      'dist/acp-sdk.js',
      'dist/cli.js',
      'dist/extension.js',
      'dist/gateway.js',
      'dist/mcp-sdk.js',
      'dist/re2.js',
      'dist/webview/main.js',
      'dist/webview/pattern.js',
      'dist/webview/session-styles.css',
      'dist/webview/session.js',
      'dist/webview/styles.css',
      'docs/images/demo-form.png',
      'docs/images/demo-pick.png',
      // The API's contract, for extensions that ask through it to copy.
      'elicitation-host.d.ts',
      'media/agent-inputs.svg',
      'package.json',
      'readme.md',
    ]);
  });

  it('ships minified bundles within their budgets', () => {
    const entries = zipEntries(VSIX);
    assert.ok(entries.get('extension/dist/extension.js')!.length < 400_000, 'dist/extension.js under 400 kB');
    assert.ok(entries.get('extension/dist/webview/main.js')!.length < 150_000, 'the webview bundle under 150 kB');
    // The page's pattern matcher (re2js), fetched after the page has rendered.
    assert.ok(entries.get('extension/dist/webview/pattern.js')!.length < 170_000, 'the pattern matcher under 170 kB');
  });

  it('leaves the benchmark hooks out (npm run bench builds its own variant)', () => {
    const extension = zipEntries(VSIX).get('extension/dist/extension.js')!.toString('utf8');
    for (const hook of ['elicitationHost.benchmark.plainQuickPick', 'ELICITATION_HOST_BENCH_LOG']) {
      assert.ok(!extension.includes(hook), `dist/extension.js holds ${hook}`);
    }
  });
});
