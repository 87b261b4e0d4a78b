/**
 * Debian's Chromium, driven by playwright-core, opening the VS Code web workbench; and
 * the extension-host test run that reports its result through codeAutomationExit.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { RunningVsCode } from './server';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM;

/** No network but loopback: nothing in the background should try to reach out. */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A missing Chromium is a failure that says how to install it, never a skip. */
export async function launchChromium(executablePath: string = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) {
    const where = executablePath === DEFAULT_CHROMIUM ? '' : ` at ${executablePath}`;
    throw new Error(`Chromium is not installed${where}: run "sudo apt-get update && sudo apt-get install -y chromium"`);
  }
  return chromium.launch({ executablePath, headless: true, args: FLAGS });
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
