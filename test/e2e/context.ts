/**
 * What every end-to-end test shares: which VS Code version runs (VSCODE_VERSION, default
 * the newest), the provisioned server, the browser, and where results go.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './harness/browser';
import { provisionVsCode, type ProvisionedVsCode, type VsCodeVersionName, VERSIONS } from './harness/provision';
import { FIXTURES, REPO } from '../support/servers';

export { FIXTURES, REPO };
export const WORKSPACE = join(REPO, 'test/e2e/workspace');
export const RESULTS = join(REPO, 'test-results');
export const SUITE = join(REPO, 'out/e2e-suite');
export const VSIX = join(REPO, 'dist-vsix/elicitation-host.vsix');

export function versionName(): VsCodeVersionName {
  const name = (process.env.VSCODE_VERSION ?? 'newest') as VsCodeVersionName;
  if (!(name in VERSIONS)) throw new Error(`VSCODE_VERSION must be one of ${Object.keys(VERSIONS).join(', ')}, not ${name}`);
  return name;
}

let vscode: Promise<ProvisionedVsCode> | undefined;
export function provisioned(): Promise<ProvisionedVsCode> {
  vscode ??= provisionVsCode(versionName(), (line) => process.stdout.write(`      ${line}\n`));
  return vscode;
}

let browser: Promise<Browser> | undefined;
export function sharedBrowser(): Promise<Browser> {
  browser ??= launchChromium();
  return browser;
}

export async function closeBrowser(): Promise<void> {
  if (browser) await (await browser).close();
  browser = undefined;
}

/** The build outputs the end-to-end tests need; missing ones fail with the command that makes them. */
export function requireBuilt(...paths: string[]): void {
  for (const path of paths) {
    if (!existsSync(path)) throw new Error(`${path} is missing: run "npm run build" and "npm run package" first (npm run test:e2e does both).`);
  }
}

/** A user-settings server, so the untrusted case can show that user servers still run. */
export function userServerSettings(): Record<string, unknown> {
  return {
    'elicitationHost.servers': {
      'user-fixture': { type: 'stdio', command: process.execPath, args: [join(FIXTURES, 'stdio.js'), '--name', 'user-fixture', '--only', 'echo,book_restaurant,link_later'] },
    },
    'elicitationHost.autoStart': ['*'],
  };
}
