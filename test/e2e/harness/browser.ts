/**
 * Debian's Chromium, driven by playwright-core, opening the VS Code web workbench.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { RunningVsCode } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Missing Chromium is a failure that says how to install it, never a skip. */
export async function launchChromium(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium is not installed at ${executablePath}: run "sudo apt-get update && sudo apt-get install -y chromium" (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath, headless: true, args: FLAGS });
}

export async function screenshot(page: Page, path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path });
}

export interface ExtensionTestRun {
  readonly exitCode: number;
  readonly consoleLines: string[];
  readonly seconds: number;
}

/**
 * Opens the workbench with the extension under development and its extension-host test
 * module; resolves with the exit code the workbench reports through codeAutomationExit.
 */
export async function runExtensionTestsInBrowser(options: {
  browser: Browser;
  server: RunningVsCode;
  folder: string;
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  timeoutMs?: number;
  screenshotPath?: string;
}): Promise<ExtensionTestRun> {
  const started = Date.now();
  const context = await options.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
  try {
    const exitCode = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the extension tests did not finish within ${(options.timeoutMs ?? 120_000) / 1000} s; console:\n${consoleLines.slice(-40).join('\n')}`)),
        options.timeoutMs ?? 120_000,
      );
      void page
        .exposeFunction('codeAutomationExit', (code: number) => {
          clearTimeout(timer);
          resolve(code);
        })
        .then(() =>
          page.goto(
            options.server.workbenchUrl({
              folder: options.folder,
              extensionDevelopmentPath: options.extensionDevelopmentPath,
              extensionTestsPath: options.extensionTestsPath,
            }),
          ),
        )
        .catch(reject);
    });
    if (options.screenshotPath) await screenshot(page, options.screenshotPath).catch(() => undefined);
    return { exitCode, consoleLines, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    if (options.screenshotPath) await screenshot(page, options.screenshotPath).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}
