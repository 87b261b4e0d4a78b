/**
 * Regenerates the README's screenshots from the real thing: `npm start`'s demo workspace in
 * VS Code 1.139, with the packaged extension. Writes docs/images/*.png.
 *
 *   npx tsx scripts/screenshots.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium, screenshot } from '../test/e2e/harness/browser';
import { provisionVsCode } from '../test/e2e/harness/provision';
import { installVsix, startVsCodeServer } from '../test/e2e/harness/server';
import { Workbench } from '../test/e2e/harness/workbench';
import { runTool } from '../test/e2e/ui-steps';
import { startDemoHttpServer } from '../test/support/servers';

const REPO = resolve(__dirname, '..');
const OUT = join(REPO, 'docs/images');

async function main(): Promise<void> {
  const pack = spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit', cwd: REPO });
  if (pack.status !== 0) throw new Error('packaging failed');
  mkdirSync(OUT, { recursive: true });
  const vscode = await provisionVsCode('newest');
  const extensionsDir = mkdtempSync(join(tmpdir(), 'eh-shots-'));
  installVsix(vscode, join(REPO, 'dist-vsix/elicitation-host.vsix'), extensionsDir);
  const http = await startDemoHttpServer();
  const server = await startVsCodeServer({
    vscode,
    workspaceTrust: false,
    smokeTestDriver: false,
    extensionsDir,
    env: { ELICITATION_HOST_DEMO_HTTP_PORT: String(http.port) },
  });
  const browser = await launchChromium();
  try {
    const workbench = await Workbench.open(browser, server, join(REPO, 'demo'), OUT);
    await workbench.openAgentInputs();
    await workbench.waitForViewRows(/Servers/i, (rows) => rows.some((r) => r.includes('book_restaurant')), 30_000);
    await runTool(workbench, 'restaurant', 'book_restaurant', 'Chez Demo');
    const frame = workbench.page.frameLocator('iframe.webview').first().frameLocator('#active-frame');
    await frame.locator('h1.message').waitFor({ timeout: 30_000 });
    await frame.locator('[data-question-id="party_size"] input').fill('4');
    await frame.locator('[data-question-id="date"] input').fill('2026-12-24');
    await workbench.page.waitForTimeout(500);
    await screenshot(workbench.page, join(OUT, 'demo-form.png'));
    await frame.locator('button', { hasText: 'Cancel' }).click();
    await workbench.page.locator('.tab', { hasText: 'book_restaurant-' }).first().waitFor();
    await runTool(workbench, 'restaurant', 'check_stock', 'blue paint');
    await workbench.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Lyon' }).waitFor();
    // Away from the quick input: a tooltip would cover its title.
    await workbench.page.mouse.move(700, 650);
    await workbench.page.waitForTimeout(1500);
    await screenshot(workbench.page, join(OUT, 'demo-pick.png'));
    await workbench.page.keyboard.press('Escape');
    process.stdout.write(`written to ${OUT}\n`);
  } finally {
    await browser.close();
    await server.stop();
    await http.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
