/**
 * A page of ours (dist/webview) in headless Chromium, without VS Code: served from 127.0.0.1
 * as its panel serves it (the same HTML and Content-Security-Policy, script and styles
 * inlined under a fresh nonce), with a stand-in for acquireVsCodeApi that records what the
 * page posts. The test posts what the host would. Every page must close clean: no rule of
 * its policy broken, nothing in the console.
 */
/// <reference lib="dom" />
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../e2e/harness/browser';
import { REPO } from './servers';

/** The built pages (node scripts/build.mjs). */
export const WEBVIEW = join(REPO, 'dist/webview');

declare global {
  interface Window {
    /** What the page posted to the host, in order (each a JSON copy, as VS Code passes it). */
    __posted: Array<{ readonly type: string; readonly [key: string]: unknown }>;
    __violations: string[];
  }
}

/** What a panel puts in its page: `cspSource` is the test server's origin here, the nonce fresh for each load. */
export interface PageParts {
  readonly cspSource: string;
  readonly nonce: string;
  readonly script: string;
  readonly styles: string;
}

export interface ServedPage {
  /** The built script and stylesheet, in dist/webview. */
  readonly script: string;
  readonly styles: string;
  /** The page's HTML for one load, as its panel makes it from these parts. */
  html(parts: PageParts): string;
  /** Anything else the page fetches (the form page's checks): true when answered. Everything else is a 404. */
  resource?(path: string, res: ServerResponse): boolean;
}

export class PageHarness {
  /** What the pages logged as errors, taken by `closeClean`. */
  private readonly consoleErrors: string[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
    readonly browser: Browser,
  ) {}

  static async start(served: ServedPage): Promise<PageHarness> {
    let origin = '';
    const server = createServer((req, res) => {
      if (req.url === '/') {
        const parts = { cspSource: origin, nonce: randomBytes(18).toString('base64url'), script: readFileSync(join(WEBVIEW, served.script), 'utf8'), styles: readFileSync(join(WEBVIEW, served.styles), 'utf8') };
        res.writeHead(200, { 'content-type': 'text/html' }).end(served.html(parts));
        return;
      }
      // The page asks for nothing else: everything else it needs is inlined.
      if (!served.resource?.(req.url ?? '', res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      return new PageHarness(server, origin, await launchChromium());
    } catch (error) {
      server.close();
      throw error;
    }
  }

  /**
   * A new page, once it has said `ready`. `initScript` runs with the stand-in, before any page
   * script (a string: the test runner's transform would name functions with a helper the page lacks).
   */
  async open(initScript = ''): Promise<Page> {
    const page = await this.browser.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') this.consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => this.consoleErrors.push(e.message));
    // Before any page script, outside the policy: what VS Code provides, and a witness for
    // violations that happen before the page's own listener exists.
    await page.addInitScript(`
      window.__posted = [];
      window.__violations = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))) });
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      ${initScript}
    `);
    // Not 'load': a test may hold back what the page fetches at its load.
    await page.goto(this.origin, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__posted?.some((m) => m.type === 'ready'));
    return page;
  }

  /** What the host would post to the page. */
  async deliver(page: Page, message: object): Promise<void> {
    await page.evaluate((m) => window.postMessage(m, '*'), message as Record<string, unknown>);
  }

  /** What the page has posted so far of this type (M: the page's protocol). */
  posted<M>(page: Page, type: string): Promise<M[]> {
    return page.evaluate((t) => window.__posted.filter((m) => m.type === t), type) as Promise<unknown> as Promise<M[]>;
  }

  /** Closes the page, which must have broken no rule of its policy and logged no error. */
  async closeClean(page: Page): Promise<void> {
    const violations = await page.evaluate(() => [...window.__violations, ...window.__posted.filter((m) => m.type === 'cspViolation').map((m) => JSON.stringify(m))]);
    await page.close();
    assert.deepEqual(violations, [], "the page breaks no rule of the panel's Content-Security-Policy");
    assert.deepEqual(this.consoleErrors.splice(0), [], 'no errors in the console');
  }

  async close(): Promise<void> {
    await this.browser.close();
    this.server.close();
  }
}
