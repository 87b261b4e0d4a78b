/**
 * Runs inside a real VS Code extension host (web workbench from code-server here, or
 * desktop VS Code through @vscode/test-cli): the extension as VS Code loads it.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ElicitationHostApi } from '../../../src/extension';
import { callThroughGateway } from './gateway-call';

const EXTENSION_ID = 'elicitation-host.elicitation-host';

async function api(): Promise<ElicitationHostApi> {
  const extension = vscode.extensions.getExtension<ElicitationHostApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is installed`);
  return extension.isActive ? extension.exports : extension.activate();
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Elicitation Host in a real VS Code', () => {
  it('activates and exports its API, and nothing mutable: not the input store', async () => {
    const host = await api();
    assert.deepEqual(Object.keys(host).sort(), ['callTool', 'forExtension', 'servers', 'version']);
    assert.equal(host.version, 1);
    assert.equal('store' in host, false);
    assert.deepEqual(Object.keys(host.forExtension(EXTENSION_ID)).sort(), ['callTool', 'confirm', 'elicit', 'requestInput']);
  });

  it('an extension asking without naming itself, or by an id no installed extension has, is refused; a name is never taken for a server\'s', async () => {
    const host = await api();
    assert.throws(() => host.forExtension(' \u200B '), /needs the id/);
    assert.throws(() => host.forExtension('fixture · echo, for Claude Code'), /installed extension/);
    await assert.rejects(host.callTool('fixture', 'echo', {}), /forExtension\(context\.extension\.id\)\.callTool/);
  });

  it('registers its commands: every one it contributes, once activated (the activate call\'s stand-ins have given way to them)', async () => {
    await api();
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['runTool', 'startServer', 'stopServer', 'restartServer', 'showServerOutput', 'refreshServers', 'forgetInputs', 'showPendingInputs', 'muteServer', 'unmuteServer', 'clearHistory']) {
      assert.ok(commands.includes(`elicitationHost.${command}`), `elicitationHost.${command} is registered`);
    }
    // A stand-in runs the command of the same id once the extension proper has registered it (src/ui/deferred.ts): each must be there.
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: Array<{ command: string }> } };
    const contributed = manifest.contributes.commands.map((c) => c.command).filter((id) => !id.startsWith('elicitationHost.benchmark.'));
    assert.deepEqual(contributed.filter((id) => !commands.includes(id)), [], 'every contributed command is registered');
  });

  it('reads its configuration, including the workspace settings', () => {
    const config = vscode.workspace.getConfiguration('elicitationHost');
    assert.equal(config.get('url.enabled'), true);
    assert.equal(config.get('toolCallTimeoutSeconds'), 60);
    assert.deepEqual(config.get('autoStart'), ['*']);
    assert.equal(config.get('inputRequired.maxRounds'), 7, 'the value from the workspace .vscode/settings.json');
  });

  it('runs in the workspace trust state the runner asked for', () => {
    const expected = process.env.ELICITATION_HOST_EXPECT_TRUSTED;
    assert.ok(expected === 'true' || expected === 'false', 'ELICITATION_HOST_EXPECT_TRUSTED is set by the test runner');
    assert.equal(vscode.workspace.isTrusted, expected === 'true');
  });

  it('workspace servers start only in a trusted workspace; their tools are listed', async () => {
    const host = await api();
    if (vscode.workspace.isTrusted) {
      const fixture = await until('the fixture server to run', () => host.servers().find((s) => s.name === 'fixture' && s.state === 'running'));
      assert.equal(fixture.protocolVersion, '2025-11-25');
      for (const tool of ['book_restaurant', 'clear_completed', 'echo', 'pick_instruments']) assert.ok(fixture.tools.includes(tool), `${tool} is listed`);
      await until('the second server to run', () => host.servers().find((s) => s.name === 'second' && s.state === 'running'));
    } else {
      await until('the workspace servers to be blocked', () => {
        const states = host.servers().filter((s) => s.name === 'fixture' || s.name === 'second').map((s) => s.state);
        return states.length === 2 && states.every((s) => s === 'blocked') ? states : undefined;
      });
    }
  });

  it('servers from the user settings run whatever the trust', async () => {
    const host = await api();
    const user = await until('the user-settings server to run', () => host.servers().find((s) => s.name === 'user-fixture' && s.state === 'running'));
    assert.ok(user.tools.includes('echo'));
  });

  it('watches mcp.json: a broken entry is a diagnostic on the file while the others keep running; a changed server restarts; a removed one stops', async () => {
    const host = await api();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    const original = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const config = JSON.parse(original.replace(/^\s*\/\/.*$/gm, '')) as { servers: Record<string, { args: string[]; env: Record<string, string> }> };
    const write = (servers: Record<string, unknown>): Thenable<void> =>
      vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify({ servers }, null, 2)));
    const trusted = vscode.workspace.isTrusted;
    const running = (name: string) => host.servers().find((s) => s.name === name && s.state === (trusted ? 'running' : 'blocked'));
    await until('the workspace servers', () => running('fixture') && running('second'));
    try {
      // A third server without a command: reported where it is, with line and column.
      await write({ ...config.servers, third: { type: 'stdio' } });
      const diagnostics = await until('a diagnostic on mcp.json', () => {
        const found = vscode.languages.getDiagnostics(file);
        return found.length > 0 ? found : undefined;
      });
      assert.match(diagnostics[0].message, /third/);
      assert.ok(diagnostics[0].range.start.line > 0, `the diagnostic points into the file: line ${diagnostics[0].range.start.line + 1}`);
      assert.ok(running('fixture') && running('second'), 'the good servers keep running');

      // "second" changes (a new variable in its environment): it restarts and sees it.
      await write({ ...config.servers, second: { ...config.servers.second, env: { ...config.servers.second.env, WATCHED: 'changed' } } });
      await until('the diagnostic to clear', () => (vscode.languages.getDiagnostics(file).length === 0 ? true : undefined));
      if (trusted) {
        const end = Date.now() + 20_000;
        let value: unknown;
        while (Date.now() < end) {
          const result = await callThroughGateway('second', 'read_env', { name: 'WATCHED' }).catch(() => undefined);
          value = result && (JSON.parse(result.content[0].text) as { value: unknown }).value;
          if (value === 'changed') break;
          await new Promise((r) => setTimeout(r, 200));
        }
        assert.equal(value, 'changed', 'the restarted server runs with the new definition');
      }

      // "second" removed: it stops and leaves the list.
      const { second: _removed, ...rest } = config.servers;
      await write(rest);
      await until('"second" to be gone', () => (host.servers().some((s) => s.name === 'second') ? undefined : true));
      // The list is read again as a whole: the other server's state settles with it.
      assert.ok(await until('the other server to be as it was', () => running('fixture')), 'the other server was left alone');
    } finally {
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(original));
      await until('"second" to be back', () => running('second'));
    }
  });

  it('calls a tool through the gateway (refused for an untrusted workspace server); the API\'s callTool asks the person first, and nobody can be asked in a test run', async () => {
    const host = await api();
    if (vscode.workspace.isTrusted) {
      const result = await callThroughGateway('fixture', 'echo', { text: 'from the extension host' });
      assert.deepEqual(JSON.parse(result.content[0].text), { echo: 'from the extension host' });
    } else {
      // Blocked before anyone would be asked.
      await assert.rejects(host.forExtension(EXTENSION_ID).callTool('fixture', 'echo', { text: 'x' }), /does not start until you trust the workspace/);
    }
    const viaUser = await callThroughGateway('user-fixture', 'echo', { text: 'user' });
    assert.deepEqual(JSON.parse(viaUser.content[0].text), { echo: 'user' });
    // VS Code refuses dialogs while extension tests run: the consent cannot be given, so the call is refused.
    await assert.rejects(host.forExtension(EXTENSION_ID).callTool('user-fixture', 'echo', { text: 'x' }), (e: unknown) => {
      const error = e as { name?: string; code?: number; message?: string };
      return error.name === 'ElicitationRequestError' && error.code === -32001 && /could not be asked whether the extension "Elicitation Host" may call the tools of the MCP server "user-fixture"/.test(error.message ?? '');
    });
  });
});
