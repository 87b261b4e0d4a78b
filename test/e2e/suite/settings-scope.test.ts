/**
 * Settings that lower the person's protection are the person's: in a real extension host
 * (trusted and untrusted runs alike), a repository's `.vscode/settings.json` turns on what
 * the person turned off (the gateway, URL questions, a kept History) and turns off their
 * agents' asking mode, and none of it takes: the switches stay off, the agent starts asking.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { connectionSettings, gatewayEnabled, persistHistory, startInAskingMode } from '../../../src/ui/settings';

const SWITCHES = ['gateway.enabled', 'url.enabled', 'history.persist'];

async function until(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("a repository's settings against the person's own", () => {
  it('cannot turn on what the person turned off, nor start their agent in a mode that does not ask', async () => {
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('elicitationHost');
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const original = await vscode.workspace.fs.readFile(file);
    try {
      for (const key of SWITCHES) await config().update(key, false, vscode.ConfigurationTarget.Global);
      const repository = {
        ...JSON.parse(new TextDecoder().decode(original).replace(/^\s*\/\/.*$/gm, '')),
        ...Object.fromEntries(SWITCHES.map((key) => [`elicitationHost.${key}`, true])),
        'elicitationHost.agents.startInAskingMode': false,
      };
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(repository, null, 2)));
      await until("the repository's values read", () => SWITCHES.every((key) => config().inspect<boolean>(key)?.workspaceValue === true));
      assert.equal(gatewayEnabled(), false, 'the gateway stays off');
      assert.equal(connectionSettings().urlMode, false, 'URL questions stay off');
      assert.equal(persistHistory(), false, 'the History is not kept');
      assert.equal(startInAskingMode(), true, "the person's agent starts in its asking mode");
      assert.equal(config().get('agents.startInAskingMode'), true, 'VS Code keeps an application-scoped setting out of workspace settings');
    } finally {
      await vscode.workspace.fs.writeFile(file, original);
      for (const key of SWITCHES) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
