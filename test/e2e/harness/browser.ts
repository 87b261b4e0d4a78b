/**
 * The browser the tests drive through playwright-core: an installed Chrome or Chromium when
 * there is one, else the Chromium shipped inside the npm package @sparticuz/chromium, so a
 * fresh machine needs nothing installed by hand. Also the extension-host test run that
 * reports its result through codeAutomationExit.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { PACKAGE, packagedChromium } from './packaged-chromium';
import type { RunningVsCode } from './server';

/** Where an installed Chrome or Chromium is looked for, in this order (Debian's package first). */
export const INSTALLED_BROWSERS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/**
 * The browser's path. CHROMIUM_PATH, when set, decides: a path (which must exist), or
 * `@sparticuz/chromium` for the packaged one even where a browser is installed (CI uses
 * that, to test what a fresh machine runs).
 */
export async function findChromium(log?: (line: string) => void): Promise<string> {
  const named = process.env.CHROMIUM_PATH;
  if (named === PACKAGE) return packagedChromium(log);
  if (named) {
    if (!existsSync(named)) throw new Error(`CHROMIUM_PATH=${named} names no file: set it to a Chrome or Chromium, to ${PACKAGE} for the packaged one, or unset it to use an installed one or else the packaged one`);
    return named;
  }
  return INSTALLED_BROWSERS.find((path) => existsSync(path)) ?? packagedChromium(log);
}

/** No network but loopback: nothing in the background should try to reach out. */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches `executablePath`, or the browser findChromium() chooses; a missing one is a failure that says what to do, never a skip. */
export async function launchChromium(executablePath?: string): Promise<Browser> {
  const path = executablePath ?? (await findChromium());
  if (!existsSync(path)) throw new Error(`no browser at ${path}: install Chrome or Chromium there, or leave the choice to the tests (an installed one, else ${PACKAGE} from npm install)`);
  return chromium.launch({ executablePath: path, headless: true, args: FLAGS });
}

export async function screenshot(page: Page, path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
}

export interface ExtensionTestRun {
  /** What the workbench passed to codeAutomationExit: 0 when the suite's run() resolved. */
  readonly exitCode: number;
  /** The page's console, page errors included. */
  readonly consoleLines: string[];
  /** From opening the page to codeAutomationExit. */
  readonly seconds: number;
}

/**
 * Opens the workbench with the extension under development and its extension-host test
 * module (exporting run(), as for @vscode/test-electron) and resolves with the exit code
 * the workbench reports. Uses `browser` when given, else a Chromium of its own.
 */
export async function runExtensionTestsInBrowser(options: {
  server: RunningVsCode;
  folder: string;
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  timeoutMs?: number;
  screenshotPath?: string;
  browser?: Browser;
}): Promise<ExtensionTestRun> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const browser = options.browser ?? (await launchChromium());
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
  try {
    let exited!: (code: number) => void;
    const exitCode = new Promise<number>((resolve) => (exited = resolve));
    // Exposed before the page loads: the workbench looks for it when the tests settle.
    await page.exposeFunction('codeAutomationExit', (code: number) => exited(code));
    const started = Date.now();
    await page.goto(options.server.workbenchUrl(options));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the extension tests did not finish within ${timeoutMs / 1000} s; console:\n${consoleLines.slice(-40).join('\n')}`)), timeoutMs - (Date.now() - started));
    });
    try {
      const code = await Promise.race([exitCode, timedOut]);
      return { exitCode: code, consoleLines, seconds: (Date.now() - started) / 1000 };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    if (options.screenshotPath) await screenshot(page, options.screenshotPath).catch(() => undefined);
    await context.close();
    if (!options.browser) await browser.close();
  }
}
