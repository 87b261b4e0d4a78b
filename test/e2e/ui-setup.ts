/**
 * One real workbench for a file of UI scenarios: the packaged extension (.vsix) installed
 * as a user would, the test workspace with the fixture servers, answers recorded by the
 * fixtures to a file the tests read, and screenshots under test-results/.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'mocha';
import { installVsix, type RunningVsCode, startVsCodeServer } from './harness/server';
import { Workbench } from './harness/workbench';
import { closeBrowser, FIXTURES, provisioned, requireBuilt, RESULTS, sharedBrowser, userServerSettings, versionName, VSIX, WORKSPACE } from './context';

export interface Ui {
  readonly workbench: Workbench;
  readonly server: RunningVsCode;
  /** Answers the fixture servers received, in order. */
  records(): Array<{ tool: string; outcome: Record<string, unknown> }>;
  /** Waits for the next record of this tool after the ones already seen. */
  nextRecord(tool: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startUi(
  name: string,
  userSettings: Record<string, unknown> = {},
  env: Record<string, string> = {},
  /** The folder to open; the test workspace by default. */
  folder: string = WORKSPACE,
  /** More packaged extensions to install beside ours (a probe standing in for an agent, say). */
  moreVsix: readonly string[] = [],
  /** `installed: false`: ours is not installed before the window opens (a scenario installs it from inside the window). `trusted: false`: workspace trust is on and the folder opens in restricted mode. */
  options: { readonly installed?: boolean; readonly trusted?: boolean } = {},
): Promise<Ui> {
  const installed = options.installed !== false;
  requireBuilt(VSIX, join(FIXTURES, 'stdio.js'));
  const vscode = await provisioned();
  const dir = mkdtempSync(join(tmpdir(), `eh-ui-${name}-`));
  const recordFile = join(dir, 'answers.jsonl');
  writeFileSync(recordFile, '');
  const extensionsDir = join(dir, 'extensions');
  if (installed) installVsix(vscode, VSIX, extensionsDir);
  for (const vsix of moreVsix) installVsix(vscode, vsix, extensionsDir);
  const server = await startVsCodeServer({
    vscode,
    workspaceTrust: options.trusted === false,
    smokeTestDriver: false,
    extensionsDir,
    userSettings: { ...userServerSettings(), 'workbench.colorTheme': 'Default Dark Modern', ...userSettings },
    env: { ELICITATION_HOST_FIXTURES: FIXTURES, FIXTURE_RECORD: recordFile, ...env },
  });
  let workbench: Workbench;
  try {
    workbench = await Workbench.openUrl(await sharedBrowser(), server.workbenchUrl({ folder }), join(RESULTS, `${versionName()}`), { waitForExtension: installed });
  } catch (error) {
    await server.stop();
    throw error;
  }
  const read = (): Array<{ tool: string; outcome: Record<string, unknown> }> =>
    existsSync(recordFile)
      ? readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tool: string; outcome: Record<string, unknown> })
      : [];
  const seen = new Map<string, number>();
  return {
    workbench,
    server,
    records: read,
    async nextRecord(tool, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const mine = read().filter((r) => r.tool === tool);
        const index = seen.get(tool) ?? 0;
        if (mine.length > index) {
          seen.set(tool, index + 1);
          return mine[index].outcome;
        }
        if (Date.now() > end) throw new Error(`the fixture recorded no new answer for ${tool} within ${timeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      await workbench.close().catch(() => undefined);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A screenshot of the failing step, named after the test. */
export async function screenshotOnFailure(ctx: Context, ui: Ui | undefined): Promise<void> {
  if (!ui || ctx.currentTest?.state !== 'failed') return;
  const name = `FAILED-${ctx.currentTest.fullTitle().replace(/[^\w-]+/g, '_').slice(0, 120)}`;
  const path = await ui.workbench.screenshot(name).catch(() => undefined);
  if (path) process.stdout.write(`      screenshot: ${path}\n`);
  await ui.workbench.dismissLeftovers();
}

/**
 * The hooks every file of UI scenarios shares: a screenshot of a failing step (and the
 * workbench cleared for the next), then the workbench and the browser stopped at the end.
 */
export function uiHooks(current: () => Ui | undefined, cleanup?: () => void): void {
  afterEach(async function () {
    await screenshotOnFailure(this, current());
  });
  after(async () => {
    await current()?.stop();
    await closeBrowser();
    cleanup?.();
  });
}
