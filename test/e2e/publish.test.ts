/**
 * What the registries' own tools say about the manifest: `vsce package` (the Marketplace's)
 * and `ovsx publish` (Open VSX's) package the extension with no flag and print no warning.
 * ovsx has no command that only packages: it packages with vsce's library and then uploads,
 * so here it uploads to a stand-in registry on loopback that keeps what it gets. Both run
 * the `vscode:prepublish` build, as they would before a real upload.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, requireBuilt, VSIX } from './context';
import { extensionFiles, zipEntries } from './vsix-entries';

const BIN = join(REPO, 'node_modules/.bin');

/** Runs a packaging tool in the repository with no flag but where to write or send; its whole output. */
function run(tool: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(BIN, tool), args, { cwd: REPO, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * The warnings in a tool's output: vsce's ` WARNING ` lines and anything else that says warn,
 * except npm's own complaints about this machine's npm configuration (the prepublish script
 * runs through npm), which are no verdict on the extension.
 */
function warnings(output: string): string[] {
  return output.split('\n').filter((line) => /warn/i.test(line) && !/^npm warn /i.test(line.trim()));
}

/** Open VSX's publish endpoint as ovsx calls it (POST /api/-/publish?token=…), keeping the upload. */
async function standInRegistry(): Promise<{ server: Server; url: string; uploads: Buffer[] }> {
  const uploads: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url?.startsWith('/api/-/publish?')) {
        uploads.push(Buffer.concat(chunks));
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ namespace: 'elicitation-host', name: 'elicitation-host', version: '0.1.0', targetPlatform: 'universal' }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `not served here: ${req.method} ${req.url}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, uploads };
}

describe('publishing with the registries\' own tools', function () {
  this.timeout(5 * 60_000);
  const dir = mkdtempSync(join(tmpdir(), 'eh-publish-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('vsce package needs no flag and warns of nothing', async () => {
    const out = join(dir, 'vsce.vsix');
    const { code, output } = await run('vsce', ['package', '-o', out]);
    assert.equal(code, 0, output);
    assert.deepEqual(warnings(output), [], output);
    // The same files as npm run package ships.
    requireBuilt(VSIX);
    assert.deepEqual(extensionFiles(out), extensionFiles(VSIX));
  });

  it('ovsx publish packages it with no packaging flag, warns of nothing and uploads it whole', async () => {
    const registry = await standInRegistry();
    try {
      // -r and -p say where to publish and as whom; nothing about packaging is given.
      const { code, output } = await run('ovsx', ['publish', '-r', registry.url, '-p', 'a-stand-in-token']);
      assert.equal(code, 0, output);
      assert.deepEqual(warnings(output), [], output);
      assert.match(output, /Published elicitation-host\.elicitation-host v0\.1\.0/);
      assert.equal(registry.uploads.length, 1, output);
      const upload = join(dir, 'ovsx.vsix');
      writeFileSync(upload, registry.uploads[0]);
      assert.deepEqual(extensionFiles(upload), extensionFiles(VSIX));
      assert.match(zipEntries(upload).get('extension.vsixmanifest')!.toString('utf8'), /<Identity Language="en-US" Id="elicitation-host" Version="0\.1\.0" Publisher="elicitation-host"/);
    } finally {
      await new Promise((resolve) => registry.server.close(resolve));
    }
  });
});
