/**
 * UI scenarios: a script in one of the window's terminals asks the person with
 * `elicitation-host ask`, as a git hook would; and an ACP client that offers no elicitation
 * runs an agent through `elicitation-host acp-proxy` there, the agent's question answered in
 * our form. The person opens a terminal (Terminal: Create
 * New Terminal) and types `sh push.sh`; the script runs `elicitation-host` as a person's script
 * would, from the PATH (the .vsix ships dist/cli.js and the extension puts a launcher for it
 * first on terminals' PATH), and it finds the window through ELICITATION_HOST_MCP_URL and
 * _TOKEN, given to the terminal by the same environment variable collection. Our prompt answers it, and the script gets
 * the exit code and the content.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../support/wait';
import { FIXTURES, requireBuilt, versionName } from './context';
import { packTestExtension, probeFile } from './test-extensions';
import { startUi, type Ui, uiHooks } from './ui-setup';

const ACP_CLIENT = join(FIXTURES, 'acp-client.js');
const ACP_AGENT = join(FIXTURES, 'acp-agent.js');

/** A shell word, quoted. */
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

describe(`UI: a VS Code terminal asks through the window: elicitation-host ask and acp-proxy (VS Code ${versionName()})`, function () {
  this.timeout(5 * 60_000);
  let ui: Ui | undefined;
  let dir: string;

  /** A script that runs the CLI (`ask`, by default) and writes what it got: its stdout and, whole, its exit code. */
  function script(name: string, args: string[], command: readonly string[] = ['elicitation-host', 'ask']): string {
    const path = join(dir, name);
    const base = join(dir, name.replace(/\.sh$/, ''));
    writeFileSync(path, [
      `${[...command, ...args].map(quote).join(' ')} > ${quote(`${base}.out`)}`,
      `echo $? > ${quote(`${base}.code.tmp`)} && mv ${quote(`${base}.code.tmp`)} ${quote(`${base}.code`)}`,
      '',
    ].join('\n'));
    return path;
  }

  /** What the script got: its exit code (once it has one) and its stdout. */
  async function outcome(name: string): Promise<{ code: number; stdout: string }> {
    const base = join(dir, name.replace(/\.sh$/, ''));
    await waitUntil(`${name} to finish`, () => existsSync(`${base}.code`), 30_000);
    return { code: Number(readFileSync(`${base}.code`, 'utf8').trim()), stdout: readFileSync(`${base}.out`, 'utf8') };
  }

  /** Types a command into the terminal, as a person does. */
  async function typeInTerminal(command: string): Promise<void> {
    const { page } = ui!.workbench;
    const terminal = page.locator('.terminal-wrapper.active .xterm, .terminal-wrapper .xterm').first();
    await terminal.waitFor({ timeout: 30_000 });
    await terminal.click();
    await page.keyboard.type(command);
    await page.keyboard.press('Enter');
  }

  before(async () => {
    requireBuilt(ACP_CLIENT, ACP_AGENT);
    dir = mkdtempSync(join(tmpdir(), 'eh-ui-ask-'));
    ui = await startUi('ask', {}, { PROBE_DIR: dir }, undefined, [packTestExtension('probe-extension', dir)]);
    // The gateway listens, and has given its variables to terminals opened from now on.
    await ui.workbench.runCommand('Gateway Probe: Write Gateway Environment');
    const gateway = await probeFile<{ url?: string }>(join(dir, 'gateway.json'));
    assert.match(gateway.url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    await ui.workbench.runCommand('Terminal: Create New Terminal');
  });
  uiHooks(() => ui, () => rmSync(dir, { recursive: true, force: true }));

  it('ask --confirm --destructive: our warning dialog, Decline the default, shows "Terminal: push.sh"; Accept gives the script exit 0 and {}', async () => {
    const { workbench } = ui!;
    await typeInTerminal(`sh ${quote(script('push.sh', ['--confirm', 'Push to main?', '--destructive']))}`);
    const dialog = workbench.dialog.filter({ hasText: 'Push to main?' });
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /"Terminal: push\.sh" asks to go ahead with a destructive action\. Accept\?/);
    const focused = await workbench.page.evaluate(() => document.activeElement?.textContent?.trim());
    assert.equal(focused, 'Decline', 'the default button is not the one that goes ahead');
    await workbench.screenshot('ask-terminal-destructive-confirm');
    await workbench.clickDialogButton('Accept');
    assert.deepEqual(await outcome('push.sh'), { code: 0, stdout: '{}\n' });
  });

  it('ask --confirm: a yes/no in the quick input titled "Terminal: deploy.sh"; Decline gives the script exit 1 and nothing on stdout', async () => {
    const { workbench } = ui!;
    await typeInTerminal(`sh ${quote(script('deploy.sh', ['--confirm', 'Deploy the staging build?']))}`);
    await workbench.waitForQuickInputTitle('Terminal: deploy.sh', 30_000);
    const rows = (await workbench.quickPickRows()).map((r) => r.replace(/\s+/g, ' ').trim());
    assert.ok(rows.some((r) => r.includes('Deploy the staging build?')), `the question is shown: ${rows.join(' | ')}`);
    assert.ok(rows.includes('Accept') && rows.includes('Decline'), `Accept and Decline: ${rows.join(' | ')}`);
    await workbench.screenshot('ask-terminal-confirm');
    await workbench.clickRow(/^\s*Decline\s*$/);
    assert.deepEqual(await outcome('deploy.sh'), { code: 1, stdout: '' });
  });

  it('ask typed at the prompt of the terminal\'s own bash: the quick input is titled "Terminal: bash", not the shell integration\'s script', async () => {
    const { workbench } = ui!;
    const base = join(dir, 'typed');
    // Typed at the prompt, not run from a script: the parent is the terminal's bash, started by VS Code with its shell integration (--init-file …/shellIntegration-bash.sh).
    await typeInTerminal(`elicitation-host ask --confirm 'Tag the release?' > ${quote(`${base}.out`)}; echo $? > ${quote(`${base}.code.tmp`)} && mv ${quote(`${base}.code.tmp`)} ${quote(`${base}.code`)}`);
    await workbench.waitForQuickInputTitle(/^Terminal: /, 30_000);
    const title = (await workbench.quickInput.locator('.quick-input-title').innerText()).trim();
    const rows = (await workbench.quickPickRows()).map((r) => r.replace(/\s+/g, ' ').trim());
    assert.ok(rows.some((r) => r.includes('Tag the release?')), `the question is shown: ${rows.join(' | ')}`);
    await workbench.screenshot('ask-terminal-typed');
    assert.match(title, /^Terminal: bash(?:\s|$)/, `named for the shell the person typed into: ${title}`);
    await workbench.clickRow(/^\s*Accept\s*$/);
    assert.deepEqual(await outcome('typed.sh'), { code: 0, stdout: '{}\n' });
  });

  it('acp-proxy: an ACP client that offers no elicitation gets the agent\'s reply, the agent\'s question answered in our form as "Terminal: acp-agent.js"', async () => {
    const { workbench } = ui!;
    // The fixture client (written with the ACP SDK) starts the proxy as its agent; the proxy starts the fixture agent.
    const client = [process.execPath, ACP_CLIENT, '--prompt', 'form', '--', 'elicitation-host', 'acp-proxy', '--', process.execPath, ACP_AGENT];
    await typeInTerminal(`sh ${quote(script('agent.sh', [], client))}`);
    const frame = workbench.webview();
    await frame.locator('h1.message', { hasText: 'Which colour, and your initials?' }).waitFor({ timeout: 30_000 });
    // The form page names the asker and the tool call (it shows no ACP session: src/ui/form passes none to the page).
    assert.equal((await frame.locator('.source').textContent())?.trim(), "Terminal: acp-agent.js · Choose a colour, for session 'form'");
    await frame.locator('[data-question-id="colour"] label', { hasText: 'Blue' }).click();
    await frame.locator('[data-question-id="initials"] input').fill('XY');
    await workbench.screenshot('acp-proxy-terminal-form');
    await frame.locator('button', { hasText: 'Submit' }).click();
    const { code, stdout } = await outcome('agent.sh');
    assert.equal(code, 0, stdout);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines.find((l) => l.type === 'turn'), { type: 'turn', prompt: 'form', reply: 'form: {"action":"accept","content":{"colour":"blue","initials":"XY"}}', stopReason: 'end_turn' });
    assert.equal(lines.filter((l) => l.type === 'elicitation').length, 0, 'the question never reached the client');
  });
});
