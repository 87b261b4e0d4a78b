/**
 * The .vsix that `npm run package` builds (and the UI scenarios install): what ships.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, requireBuilt, VSIX } from './context';
import { extensionFiles, zipEntries } from './vsix-entries';

interface Manifest {
  readonly name: string;
  readonly publisher: string;
  readonly version: string;
  readonly repository: { readonly url: string };
  readonly extensionKind?: string[];
  readonly contributes: unknown;
}

describe('the packaged extension', () => {
  it('holds the bundles, media, the README and its images, the manifest, LICENSE and the API\'s elicitation-host.d.ts, and nothing of the sources, tests or node_modules', () => {
    requireBuilt(VSIX);
    assert.deepEqual(extensionFiles(VSIX), [
      'LICENSE.txt',
      'changelog.md',
      'dist/acp-sdk.js',
      'dist/ahp.js',
      'dist/cli.js',
      'dist/extension-main.js',
      'dist/extension.js',
      'dist/gateway.js',
      'dist/mcp-sdk.js',
      'dist/re2.js',
      'dist/webview/checks.js',
      'dist/webview/main.js',
      'dist/webview/session-styles.css',
      'dist/webview/session.js',
      'dist/webview/styles.css',
      'docs/images/acp-session.png',
      'docs/images/demo-form.png',
      'docs/images/demo-pick.png',
      // The API's contract, for extensions that ask through it to copy.
      'elicitation-host.d.ts',
      'media/agent-inputs.svg',
      'media/icon.png',
      'media/icon.svg',
      'media/walkthrough/add-server.md',
      'media/walkthrough/connect-agent.md',
      'media/walkthrough/where-answers.md',
      'package.json',
      'readme.md',
    ]);
  });

  it('reads well in the Marketplace and Open VSX: categories, keywords within the tag limit, an icon of at least 128 px, a banner, the repository, the changelog', () => {
    requireBuilt(VSIX);
    const entries = zipEntries(VSIX);
    const vsixManifest = entries.get('extension.vsixmanifest')!.toString('utf8');
    const manifest = JSON.parse(entries.get('extension/package.json')!.toString('utf8')) as Manifest;
    const categories = /<Categories>([^<]*)<\/Categories>/.exec(vsixManifest)?.[1].split(',') ?? [];
    assert.ok(categories.includes('AI'), `categories: ${categories.join(', ')}`);
    // The Marketplace refuses more than 30 tags, counting the keywords and the tags vsce adds.
    const tags = /<Tags>([^<]*)<\/Tags>/.exec(vsixManifest)?.[1].split(',').filter(Boolean) ?? [];
    assert.ok(tags.includes('mcp') && tags.includes('elicitation'), `tags: ${tags.join(', ')}`);
    assert.ok(tags.length <= 30, `${tags.length} tags: ${tags.join(', ')}`);
    // The icon: a PNG (the Marketplace refuses an SVG), square, at least 128 px.
    assert.match(vsixManifest, /<Icon>extension\/media\/icon\.png<\/Icon>/);
    const icon = entries.get('extension/media/icon.png')!;
    assert.equal(icon.toString('latin1', 1, 4), 'PNG');
    const [width, height] = [icon.readUInt32BE(16), icon.readUInt32BE(20)];
    assert.ok(width === height && width >= 128, `icon ${width}×${height}`);
    assert.match(vsixManifest, /Branding\.Color" Value="#[0-9a-f]{6}"/i);
    assert.match(vsixManifest, /Branding\.Theme" Value="(dark|light)"/);
    assert.match(vsixManifest, new RegExp(`Links\\.Source" Value="${manifest.repository.url.replace(/\./g, '\\.')}"`));
    assert.match(entries.get('extension/changelog.md')!.toString('utf8'), new RegExp(`^## ${manifest.version.replace(/\./g, '\\.')}$`, 'm'), 'the changelog has the current version');
  });

  it('points every README link vsce made absolute at a file of this repository (none inside code)', () => {
    const entries = zipEntries(VSIX);
    const manifest = JSON.parse(entries.get('extension/package.json')!.toString('utf8')) as Manifest;
    const home = manifest.repository.url.replace(/\.git$/, '');
    const readme = entries.get('extension/readme.md')!.toString('utf8');
    const linked = [...readme.matchAll(new RegExp(`${home.replace(/\./g, '\\.')}/(?:raw|blob)/HEAD/([^)\\s]+)`, 'g'))].map((m) => m[1]);
    assert.ok(linked.length > 0, 'the README links into the repository');
    // A link's #anchor is the page's business (test/unit/doc-links.test.ts checks it); the file is this test's.
    for (const path of linked) assert.ok(existsSync(join(REPO, decodeURI(path.replace(/#.*$/, '')))), `${path} is linked from the README but is no file here`);
  });

  it('runs where the workspace is, under the id its API, sign-in callback and README name', () => {
    const entries = zipEntries(VSIX);
    const manifest = JSON.parse(entries.get('extension/package.json')!.toString('utf8')) as Manifest;
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    const id = `${manifest.publisher}.${manifest.name}`;
    assert.equal(id, 'elicitation-host.elicitation-host');
    assert.match(entries.get('extension/elicitation-host.d.ts')!.toString('utf8'), new RegExp(`getExtension[^'"]*['"]${id}['"]`));
    assert.ok(JSON.stringify(manifest.contributes).includes(`vscode://${id}/oauth-callback`), 'the OAuth setting names the callback under this id');
  });

  it('ships minified bundles within their budgets', () => {
    const entries = zipEntries(VSIX);
    // What VS Code loads and times on activation: the stand-ins only (src/extension.ts).
    assert.ok(entries.get('extension/dist/extension.js')!.length < 10_000, 'dist/extension.js under 10 kB');
    assert.ok(entries.get('extension/dist/extension-main.js')!.length < 400_000, 'dist/extension-main.js under 400 kB');
    assert.ok(entries.get('extension/dist/webview/main.js')!.length < 150_000, 'the webview bundle under 150 kB');
    // The page's pattern matcher (re2js) and format checks (ajv-formats), fetched after the page has rendered.
    assert.ok(entries.get('extension/dist/webview/checks.js')!.length < 180_000, 'the pattern and format checks under 180 kB');
  });

  it('leaves the benchmark hooks out (npm run bench builds its own variant)', () => {
    for (const bundle of ['dist/extension.js', 'dist/extension-main.js']) {
      const extension = zipEntries(VSIX).get(`extension/${bundle}`)!.toString('utf8');
      for (const hook of ['elicitationHost.benchmark.plainQuickPick', 'ELICITATION_HOST_BENCH_LOG', '__elicitationHostActivation']) {
        assert.ok(!extension.includes(hook), `${bundle} holds ${hook}`);
      }
    }
  });
});
