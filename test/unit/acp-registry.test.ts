/**
 * The ACP Registry read as untrusted data (a registry file of our own,
 * test/fixtures/acp/registry.json): each entry becomes the exact command that would start it
 * (npx, uvx, or a binary already on PATH), an entry that breaks a rule is left out with the
 * rule named (a URL or an option as its package, a bad id, an id twice, nothing that runs
 * here); the command line shown reads back as the same words; a program is looked for on
 * PATH without running anything.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_REGISTRY_AGENTS, platformKey, readRegistry } from '../../src/ui/agents/acp-registry';
import { joinCommandLine, splitCommandLine } from '../../src/ui/agents/command-line';
import { findOnPath } from '../../src/ui/agents/program-on-path';

const registry = (): unknown => JSON.parse(readFileSync(join(__dirname, '../fixtures/acp/registry.json'), 'utf8'));

describe('the ACP Registry, read as untrusted data', () => {
  it('names the platform as the registry does', () => {
    assert.equal(platformKey('linux', 'x64'), 'linux-x86_64');
    assert.equal(platformKey('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(platformKey('win32', 'x64'), 'windows-x86_64');
    assert.equal(platformKey('freebsd', 'x64'), undefined);
    assert.equal(platformKey('linux', 'ia32'), undefined);
  });

  it('turns each entry into the command that would start it: npx -y, uvx --from, a binary by its name', () => {
    const { agents } = readRegistry(registry(), 'linux-x86_64');
    const byId = new Map(agents.map((a) => [a.id, a]));
    assert.deepEqual([...byId.keys()], ['alpha-agent', 'beta-py', 'gamma-bin', 'delta-both', 'many-settings']);
    assert.deepEqual(byId.get('alpha-agent')?.launches, [
      { runtime: 'npx', command: 'npx', args: ['-y', '@example/alpha-acp@1.2.3', '--acp', '--name', 'two words'], env: { ALPHA_MODE: 'strict' } },
    ]);
    assert.deepEqual(byId.get('beta-py')?.launches, [{ runtime: 'uvx', command: 'uvx', args: ['--from', 'beta-agent[acp]==4.5.6', 'beta-acp'], env: {} }]);
    assert.deepEqual(byId.get('gamma-bin')?.launches, [
      { runtime: 'binary', command: 'gamma-acp', args: ['acp'], env: {}, archive: 'https://example.com/gamma-0.9.0-linux-x64.tar.gz' },
    ]);
    // npx first, then the binary; a cmd runs from its package.
    assert.deepEqual(byId.get('delta-both')?.launches.map((l) => [l.runtime, l.command, ...l.args]), [
      ['npx', 'npx', '-y', '--package=delta-acp', 'delta-acp'],
      ['binary', 'delta'],
    ]);
    // Its "$(zap)" and bidi control stay text here: each surface escapes or shows them (text.ts).
    assert.equal(byId.get('delta-both')?.name, 'Delta $(zap) \u202eevil');
    // A binary for another platform: on Windows, the .exe ending is dropped (PATHEXT finds it).
    assert.equal(readRegistry(registry(), 'windows-x86_64').agents.find((a) => a.id === 'gamma-bin')?.launches[0].command, 'gamma-acp');
  });

  it('leaves out what breaks a rule, naming it: a URL or an option as a package, a bad id, an id twice, nothing that runs here', () => {
    const { problems } = readRegistry(registry(), 'linux-x86_64');
    assert.deepEqual(problems, [
      '"url-package": distribution.npx.package must be an npm package name with an optional version (no URL, path or option)',
      '"option-package": distribution.npx.package must be an npm package name with an optional version (no URL, path or option)',
      '"Upper-Case": id must be lowercase letters, digits and "-", at most 64',
      '"alpha-agent": the id is listed twice',
      '"no-way-here": no way to run it here (npx, uvx, or a binary for linux-x86_64)',
    ]);
  });

  it('refuses what a hostile registry could use: paths as commands, git and file specs, control characters, too much', () => {
    const entry = (distribution: unknown, extra: Record<string, unknown> = {}) => ({ id: 'x', name: 'X', version: '1.0.0', description: 'd', distribution, ...extra });
    const problem = (distribution: unknown, extra?: Record<string, unknown>): string | undefined => readRegistry({ agents: [entry(distribution, extra)] }, 'linux-x86_64').problems[0];
    assert.match(problem({ npx: { package: 'github:evil/repo' } }) ?? '', /package must be an npm package name/);
    assert.match(problem({ npx: { package: 'file:../x' } }) ?? '', /package must be an npm package name/);
    assert.match(problem({ uvx: { package: 'git+https://evil.example/x' } }) ?? '', /package must be a PyPI package name/);
    assert.match(problem({ uvx: { package: './local' } }) ?? '', /package must be a PyPI package name/);
    assert.match(problem({ npx: { package: 'ok', cmd: '../../bin/sh' } }) ?? '', /cmd must be a program's plain name/);
    assert.match(problem({ binary: { 'linux-x86_64': { archive: 'https://e.x/a.tgz', cmd: '/bin/sh' } } }) ?? '', /cmd must be a program's plain name/);
    assert.match(problem({ npx: { package: 'ok', args: ['a\nb'] } }) ?? '', /args\[0\] must be a string .* without control characters/);
    assert.match(problem({ npx: { package: 'ok', env: { 'BAD NAME': 'x' } } }) ?? '', /env\.BAD NAME must be a variable name/);
    assert.match(problem({ npx: { package: 'ok', args: Array.from({ length: 65 }, () => 'a') } }) ?? '', /at most 64 strings/);
    assert.match(problem({ npx: { package: 'ok' } }, { name: '' }) ?? '', /name, version and description must be non-empty strings/);
    // Text is capped and loses control characters.
    const [long] = readRegistry({ agents: [entry({ npx: { package: 'ok' } }, { name: `A\u0007${'n'.repeat(200)}`, description: 'line one\nline two' })] }, undefined).agents;
    assert.equal(long.name.length, 80);
    assert.ok(!long.name.includes('\u0007'));
    assert.equal(long.description, 'line one line two');
    // A binary's download must be https to be named.
    const [plain] = readRegistry({ agents: [entry({ binary: { 'linux-x86_64': { archive: 'http://e.x/a.tgz', cmd: './a' } } })] }, 'linux-x86_64').agents;
    assert.equal(plain.launches[0].archive, undefined);
    // Only so many entries are read.
    const many = readRegistry({ agents: Array.from({ length: MAX_REGISTRY_AGENTS + 3 }, (_, i) => ({ ...entry({ npx: { package: 'ok' } }), id: `a${i}` })) }, undefined);
    assert.equal(many.agents.length, MAX_REGISTRY_AGENTS);
    assert.match(many.problems.at(-1) ?? '', /^3 entries past the first 500$/);
    assert.throws(() => readRegistry({ agents: 'none' }, undefined), /must be an object with an "agents" list/);
  });

  it('shows a command as a line that reads back as the same words', () => {
    for (const words of [['npx', '-y', '@example/alpha-acp@1.2.3', '--acp', '--name', 'two words'], ['uvx', '--from', 'beta-agent[acp]==4.5.6', 'beta-acp'], ['a', "it's", '$HOME', '', 'x;y']]) {
      assert.deepEqual(splitCommandLine(joinCommandLine(words)), words, joinCommandLine(words));
    }
    assert.equal(joinCommandLine(['npx', '-y', 'pkg@1.0.0', '--name', 'two words']), "npx -y pkg@1.0.0 --name 'two words'");
  });

  describe('a program on PATH, found without running it', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'eh-on-path-'));
      mkdirSync(join(dir, 'a'));
      mkdirSync(join(dir, 'b'));
      writeFileSync(join(dir, 'a', 'npx'), '#!/bin/sh\n');
      writeFileSync(join(dir, 'b', 'npx'), '#!/bin/sh\n');
      chmodSync(join(dir, 'b', 'npx'), 0o755);
      mkdirSync(join(dir, 'b', 'uvx'));
      writeFileSync(join(dir, 'a', 'agent.CMD'), '@echo off\n');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('an executable file in a PATH folder, in PATH order; not a file without the x bit, nor a folder', async () => {
      const search = { path: [join(dir, 'a'), '', join(dir, 'b')].join(':'), windows: false };
      assert.equal(await findOnPath('npx', search), join(dir, 'b', 'npx'), 'the one in a/ is not executable');
      assert.equal(await findOnPath('uvx', search), undefined, 'a folder named uvx is not a program');
      assert.equal(await findOnPath('../a/npx', search), undefined, 'a path is not a program name');
      assert.equal(await findOnPath('npx', { path: undefined, windows: false }), undefined);
    });

    it("on Windows, with PATHEXT's endings", async () => {
      assert.equal(await findOnPath('agent', { path: join(dir, 'a'), pathExt: '.EXE;.CMD', windows: true }), join(dir, 'a', 'agent.CMD'));
      assert.equal(await findOnPath('agent', { path: join(dir, 'a'), pathExt: '.EXE', windows: true }), undefined);
    });
  });
});
