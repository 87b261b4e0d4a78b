/**
 * The harness itself: the cache is reused, a stopped server leaves no process behind, and
 * a missing browser is a failure that says how to install it.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './harness/browser';
import { provisionVsCode } from './harness/provision';
import { groupMembers, startVsCodeServer } from './harness/server';
import { provisioned, versionName } from './context';

describe(`harness (VS Code ${versionName()})`, function () {
  this.timeout(10 * 60_000);

  it('provisions once and reuses the cache', async () => {
    const first = await provisioned();
    const again = await provisionVsCode(versionName());
    assert.deepEqual(again, first);
    assert.ok(existsSync(join(first.root, '..', '..', '..', '..', '.provisioned')), 'the cache is marked as checked');
  });

  it('stops the server and every process it started', async () => {
    const server = await startVsCodeServer({ vscode: await provisioned(), workspaceTrust: false });
    const response = await fetch(server.baseUrl);
    assert.equal(response.status, 200);
    const members = groupMembers(server.pgid);
    assert.ok(members.length >= 1, 'the server runs in its own process group');
    await server.stop();
    assert.deepEqual(groupMembers(server.pgid), [], 'nothing of the server is left');
  });

  it('a missing Chromium fails with the install command', async () => {
    await assert.rejects(launchChromium('/nonexistent/chromium'), /Chromium is not installed at \/nonexistent\/chromium: run "sudo apt-get update && sudo apt-get install -y chromium"/);
  });
});
