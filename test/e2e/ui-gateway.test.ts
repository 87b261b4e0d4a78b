/**
 * UI scenarios: the gateway in the real workbench. A probe extension (probe-extension/)
 * stands in for an agent in VS Code: it calls a served server's tool through VS Code's own
 * tool API, the question is asked in our prompt, and the probe gets the answer; a cancelled
 * call closes our prompt; Claude Code's permission hook is answered in our quick pick.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import type { Workbench } from './harness/workbench';
import { closeBrowser, REPO, versionName } from './context';
import { screenshotOnFailure, startUi, type Ui } from './ui-setup';

const PROBE_SOURCE = join(REPO, 'test/e2e/probe-extension');
/** From test/e2e/context.ts userServerSettings(): a user server, served to VS Code's agent by default. */
const SERVED = 'user-fixture';

/** Packs the probe the way ours is packed, so it installs as any extension does. */
function packProbe(into: string): string {
  const vsix = join(into, 'gateway-probe.vsix');
  const vsce = join(REPO, 'node_modules/.bin/vsce');
  const result = spawnSync(vsce, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], { cwd: PROBE_SOURCE, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`packing the probe extension failed (run "npm ci" for @vscode/vsce): ${result.stdout}${result.stderr}`);
  return vsix;
}

/** Waits for a file the probe writes whole (it renames it into place). */
async function probeFile<T>(path: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > end) throw new Error(`the probe wrote no ${path} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The form document inside the Agent Input webview. */
function formFrame(workbench: Workbench): FrameLocator {
  return workbench.page.frameLocator('iframe.webview').first().frameLocator('#active-frame');
}

/**
 * Waits for our form to show this message. VS Code first asks its own "Run <tool>" for a
 * tool not marked read-only: that confirmation is answered (Yes) when it shows.
 */
async function formAfterVsCodeConfirmation(workbench: Workbench, tool: string, message: string, shot: string, probeDir: string): Promise<FrameLocator> {
  const frame = formFrame(workbench);
  const form = frame.locator('h1.message', { hasText: message });
  const end = Date.now() + 60_000;
  let confirmed = false;
  for (;;) {
    if (await form.isVisible().catch(() => false)) return frame;
    // In 1.139 a modal: "Run <tool>", the tool's description, Cancel and Yes.
    const allow = workbench.dialog.filter({ hasText: `Run ${tool}` }).locator('.monaco-button', { hasText: /^(Yes|Allow|Continue)$/ });
    if (!confirmed && (await allow.first().isVisible().catch(() => false))) {
      await workbench.screenshot(shot);
      await allow.first().click();
      confirmed = true;
    }
    // The call ended before any question showed: what the probe got says why.
    const ended = existsSync(join(probeDir, 'result.json'));
    if (ended || Date.now() > end) {
      const path = await workbench.screenshot(`FAILED-${shot}`);
      const probe = ['started.json', 'result.json'].map((f) => `${f}: ${existsSync(join(probeDir, f)) ? readFileSync(join(probeDir, f), 'utf8') : '(none)'}`).join('; ');
      throw new Error(`our form with "${message}" did not show ${ended ? 'before the call ended' : 'within 60 s'} (probe: ${probe}; screenshot: ${path})`);
    }
    await workbench.page.waitForTimeout(200);
  }
}

const field = (id: string): string => `[data-question-id="${id}"]`;

interface ProbeResult {
  readonly tool?: string;
  readonly text?: string;
  readonly error?: string;
}

describe(`UI: the gateway serves our servers to VS Code's agent (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let probeDir: string;

  /** Asks the probe to call a served tool; clears what the last call left. */
  async function invoke(tool: string, input: Record<string, unknown>): Promise<void> {
    for (const name of ['result.json', 'started.json', 'cancelled.json']) rmSync(join(probeDir, name), { force: true });
    writeFileSync(join(probeDir, 'request.json'), JSON.stringify({ server: SERVED, tool, input }));
    await ui!.workbench.runCommand('Gateway Probe: Invoke Served Tool');
  }

  before(async () => {
    probeDir = mkdtempSync(join(tmpdir(), 'eh-gateway-probe-'));
    ui = await startUi('gateway', {}, { PROBE_DIR: probeDir }, undefined, [packProbe(probeDir)]);
  });
  afterEach(async function () {
    await screenshotOnFailure(this, ui);
  });
  after(async () => {
    await ui?.stop();
    await closeBrowser();
    rmSync(probeDir, { recursive: true, force: true });
  });

  it("VS Code's tool API calls a served tool; its question is asked in our form, and the answer is the call's result", async () => {
    const { workbench } = ui!;
    await invoke('book_restaurant', { restaurant: 'Chez Gateway' });
    const frame = await formAfterVsCodeConfirmation(workbench, 'book_restaurant', 'Please provide your reservation details for Chez Gateway:', 'gateway-vscode-run-confirmation', probeDir);
    assert.match((await frame.locator('.source').textContent()) ?? '', new RegExp(`^${SERVED} · book_restaurant, for .+`), 'the form says which agent asked');
    await frame.locator(`${field('party_size')} input`).fill('3');
    await frame.locator(`${field('date')} input`).fill('2027-01-15');
    await workbench.screenshot('gateway-form-from-vscode-agent');
    await frame.locator('vscode-button', { hasText: 'Submit' }).click();
    // The fixture's tool returns what its elicitation got back, as JSON: the agent's result holds the person's answer.
    const result = await probeFile<ProbeResult>(join(probeDir, 'result.json'));
    assert.equal(result.error, undefined, `the call failed: ${result.error}`);
    assert.equal(result.tool, `mcp_${SERVED}_book_restaurant`);
    assert.deepEqual(JSON.parse(result.text ?? ''), { action: 'accept', content: { party_size: 3, date: '2027-01-15', dietary: 'none' } });
    await formFrame(workbench).locator('p.idle').waitFor();
  });

  it('a call the agent cancels closes our form', async () => {
    const { workbench } = ui!;
    await invoke('book_restaurant', { restaurant: 'Chez Cancelled' });
    const frame = await formAfterVsCodeConfirmation(workbench, 'book_restaurant', 'Chez Cancelled', 'gateway-vscode-run-confirmation-2', probeDir);
    await workbench.runCommand('Gateway Probe: Cancel Served Tool Call');
    assert.deepEqual(await probeFile(join(probeDir, 'cancelled.json')), { cancelled: true }, 'the probe had the call in flight');
    const result = await probeFile<ProbeResult>(join(probeDir, 'result.json'));
    assert.match(result.error ?? '', /cancel/i, `the call ended cancelled, not with ${JSON.stringify(result)}`);
    await frame.locator('h1.message', { hasText: 'Chez Cancelled' }).waitFor({ state: 'detached', timeout: 20_000 });
    await frame.locator('p.idle').waitFor();
    // The person is told why the form went away.
    await workbench.waitForNotification(new RegExp(`^Question from ${SERVED} · book_restaurant, for .+ closed`));
    await workbench.screenshot('gateway-cancelled-form-closed');
  });

  it("Claude Code's PermissionRequest hook is asked in our quick pick, and the answer comes back as the hook's decision", async () => {
    const { workbench } = ui!;
    await workbench.runCommand('Gateway Probe: Write Gateway Environment');
    const gateway = await probeFile<{ url?: string; token?: string }>(join(probeDir, 'gateway.json'));
    assert.match(gateway.url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    const body = readFileSync(join(REPO, 'test/fixtures/claude-code/permission-request-bash.json'), 'utf8');
        const answer = fetch(`${gateway.url}/hooks/claude-code/permission-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.token}` },
      body,
    });
    // One choice (allow this time, or for the session): our quick pick, saying who asks.
    await workbench.waitForQuickInputTitle(/Claude Code · Bash/, 30_000);
    await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Allow this time' }).waitFor();
    await workbench.screenshot('gateway-claude-code-permission');
    await workbench.clickRow('Allow this time');
    const response = await answer;
    assert.equal(response.status, 200);
    const decision = (await response.json()) as { hookSpecificOutput?: { hookEventName?: string; decision?: { behavior?: string } } };
    assert.equal(decision.hookSpecificOutput?.hookEventName, 'PermissionRequest');
    assert.equal(decision.hookSpecificOutput?.decision?.behavior, 'allow');
  });
});
