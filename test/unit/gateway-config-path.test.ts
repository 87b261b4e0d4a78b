/**
 * Connect an Agent writes only inside the workspace folder: a config path that a symbolic
 * link leads elsewhere (the file, or a folder on the way, or a link to nothing yet) is
 * refused, and says where it leads. Real links in a temporary folder.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareRecipe } from '../../src/gateway/gateway-recipes';
import { outsideWorkspace } from '../../src/gateway/config-path';

const leads = (to: string): string => `leads outside the workspace folder, to ${to}`;

describe('Connect an Agent: a config path must stay inside the workspace folder', () => {
  let base: string;
  let workspace: string;
  let elsewhere: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'eh-config-path-')));
    workspace = join(base, 'workspace');
    elsewhere = join(base, 'elsewhere');
    mkdirSync(workspace);
    mkdirSync(elsewhere);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('a file inside is fine, whether it exists, or its folder does not yet', () => {
    mkdirSync(join(workspace, '.gemini'));
    writeFileSync(join(workspace, '.gemini', 'settings.json'), '{}');
    assert.equal(outsideWorkspace(workspace, '.gemini/settings.json'), undefined);
    assert.equal(outsideWorkspace(workspace, '.claude/settings.local.json'), undefined);
    assert.equal(outsideWorkspace(workspace, '.continue/mcpServers/elicitation-host.yaml'), undefined);
  });

  it('a link to a file or folder inside the workspace is fine', () => {
    mkdirSync(join(workspace, 'shared'));
    symlinkSync(join(workspace, 'shared'), join(workspace, '.claude'));
    symlinkSync('shared/mcp.json', join(workspace, '.mcp.json'));
    assert.equal(outsideWorkspace(workspace, '.claude/settings.local.json'), undefined);
    assert.equal(outsideWorkspace(workspace, '.mcp.json'), undefined);
  });

  it('a workspace folder opened through a link is its real folder', () => {
    symlinkSync(workspace, join(base, 'link-to-workspace'));
    assert.equal(outsideWorkspace(join(base, 'link-to-workspace'), '.mcp.json'), undefined);
  });

  it('a file that is a link out of the workspace is refused, with where it leads', () => {
    writeFileSync(join(elsewhere, 'settings.json'), '{}');
    mkdirSync(join(workspace, '.gemini'));
    symlinkSync(join(elsewhere, 'settings.json'), join(workspace, '.gemini', 'settings.json'));
    assert.equal(outsideWorkspace(workspace, '.gemini/settings.json'), leads(join(elsewhere, 'settings.json')));
  });

  it('a folder on the way that is a link out (relative or absolute) is refused, the file there or not', () => {
    symlinkSync('../elsewhere', join(workspace, '.claude'));
    assert.equal(outsideWorkspace(workspace, '.claude/settings.local.json'), leads(join(elsewhere, 'settings.local.json')));
    symlinkSync(elsewhere, join(workspace, '.codex'));
    writeFileSync(join(elsewhere, 'config.toml'), '');
    assert.equal(outsideWorkspace(workspace, '.codex/config.toml'), leads(join(elsewhere, 'config.toml')));
  });

  it('a link out to something that does not exist yet is refused: writing would create it there', () => {
    symlinkSync(join(elsewhere, 'not-yet', 'mcp.json'), join(workspace, '.mcp.json'));
    assert.equal(outsideWorkspace(workspace, '.mcp.json'), leads(join(elsewhere, 'not-yet', 'mcp.json')));
    symlinkSync('../elsewhere/roo', join(workspace, '.roo'));
    assert.equal(outsideWorkspace(workspace, '.roo/mcp.json'), leads(join(elsewhere, 'roo', 'mcp.json')));
    // One that would create it inside is fine.
    symlinkSync('config/gemini', join(workspace, '.gemini'));
    assert.equal(outsideWorkspace(workspace, '.gemini/settings.json'), undefined);
  });

  it('links that lead round in a circle are refused', () => {
    symlinkSync(join(workspace, '.b'), join(workspace, '.a'));
    symlinkSync(join(workspace, '.a'), join(workspace, '.b'));
    assert.equal(outsideWorkspace(workspace, '.a/settings.json'), 'leads through symbolic links that go round in a circle');
  });

  it('a path with .. in it cannot step out either', () => {
    assert.equal(outsideWorkspace(workspace, '../elsewhere/x.json'), leads(join(elsewhere, 'x.json')));
  });
});

describe('Connect an Agent in a workspace whose .claude leads elsewhere', () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'eh-connect-')));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('offers no file there and reads nothing there: the problem says where it leads, and the entries come as a snippet to copy', () => {
    const workspace = join(base, 'workspace');
    const elsewhere = join(base, 'home-claude');
    mkdirSync(workspace);
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'settings.local.json'), '{ "permissions": { "allow": ["Bash(rm -rf:*)"] } }\n');
    symlinkSync(elsewhere, join(workspace, '.claude'));
    const read: string[] = [];
    const setup = prepareRecipe('claude-code', {
      servers: [{ name: 'restaurant', url: 'http://127.0.0.1:4711/mcp/restaurant' }],
      permissionHookUrl: 'http://127.0.0.1:4711/hooks/claude-code/permission-request',
      read: (path) => {
        read.push(path);
        try {
          return readFileSync(join(workspace, path), 'utf8');
        } catch {
          return undefined;
        }
      },
      refuse: (path) => outsideWorkspace(workspace, path),
    });
    assert.deepEqual(setup.files.map((f) => f.path), ['.mcp.json'], 'the file inside is still offered');
    assert.ok(!read.includes('.claude/settings.local.json'), 'what is there is not read');
    assert.deepEqual(setup.problems, [
      `.claude/settings.local.json leads outside the workspace folder, to ${join(elsewhere, 'settings.local.json')}: not written. Its entries are offered to copy instead, to put in that file yourself.`,
    ]);
    const snippet = setup.snippets.find((s) => s.title.includes('.claude/settings.local.json'));
    assert.ok(snippet, `a snippet for it (got ${setup.snippets.map((s) => s.title).join('; ')})`);
    assert.equal(snippet.language, 'json');
    assert.equal(snippet.copyWithToken, false);
    assert.deepEqual(JSON.parse(snippet.text).hooks.PermissionRequest[0].hooks[0].url, 'http://127.0.0.1:4711/hooks/claude-code/permission-request');
    assert.equal(setup.snippets[0], snippet, 'offered first, where the file would have been');
  });
});
