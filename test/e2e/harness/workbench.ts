/**
 * Driving the VS Code web workbench with Playwright: the command palette, quick input,
 * views, dialogs and webviews, with selectors checked against 1.139 and 1.103.
 */
import { join } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { waitUntil } from '../../support/wait';
import { screenshot } from './browser';
import type { RunningVsCode } from './server';

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly resultsDir: string,
  ) {}

  /** Opens a folder in a new page and waits until the workbench and our extension are up. */
  static open(browser: Browser, server: RunningVsCode, folder: string, resultsDir: string): Promise<Workbench> {
    return Workbench.openUrl(browser, server.workbenchUrl({ folder }), resultsDir);
  }

  /**
   * Opens a workbench URL (one that `npm start` printed, say) in a new page; waits as open()
   * does, or only for the workbench when the extension is not installed yet (`waitForExtension: false`).
   */
  static async openUrl(browser: Browser, url: string, resultsDir: string, options: { readonly waitForExtension?: boolean } = {}): Promise<Workbench> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const workbench = new Workbench(page, resultsDir);
    try {
      await page.goto(url);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      // Our activity bar entry appears once the extension's contributions are registered.
      if (options.waitForExtension !== false) await page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
      return workbench;
    } catch (error) {
      // What the page showed instead, and no page left open in a shared browser.
      const shown = await workbench.screenshot('FAILED-workbench-open').catch(() => undefined);
      await context.close();
      if (shown && error instanceof Error) error.message += `\n(screenshot: ${shown})`;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }

  async screenshot(name: string): Promise<string> {
    const path = join(this.resultsDir, `${name}.png`);
    await screenshot(this.page, path);
    return path;
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /**
   * Runs a command by its palette title. The palette lists what was enabled when it
   * opened, so a command that is not there yet (its extension still activating) is looked
   * for again in a freshly opened palette.
   */
  async runCommand(title: string, timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    const labels = this.quickInput.locator('.quick-input-list .monaco-list-row .label-name');
    for (;;) {
      await this.openPalette();
      const input = this.quickInput.locator('input');
      try {
        await input.fill(`>${title}`, { timeout: 5_000 });
      } catch (error) {
        // The palette closed as it opened (seen once in CI: inert, then hidden): open it again.
        if (Date.now() > end) throw error;
        continue;
      }
      // The row whose label is exactly the title (the filter also finds longer titles).
      const settle = Date.now() + 2000;
      let index = -1;
      while (index < 0 && Date.now() < settle) {
        const texts = await labels.allInnerTexts();
        index = texts.findIndex((l) => [title, `${title}…`].includes(l.trim().replace(/\u00a0/g, ' ')));
        if (index < 0) await this.page.waitForTimeout(100);
      }
      if (index >= 0) {
        // A click, not arrow keys: the list reuses its row elements, so their order in the
        // document need not be the order on screen.
        await labels.nth(index).click();
        return;
      }
      await this.page.keyboard.press('Escape');
      if (Date.now() > end) throw new Error(`no command titled "${title}" in the palette`);
      await this.page.waitForTimeout(500);
    }
  }

  /**
   * F1, from wherever the focus is (a webview keeps keys to itself: focus the workbench first).
   * Open means editable with the palette's ">": a quick pick still closing (inert) is not it.
   */
  private async openPalette(): Promise<void> {
    const input = this.quickInput.locator('input');
    const open = (): Promise<boolean> =>
      input
        .first()
        .evaluate((el: HTMLInputElement) => el.isConnected && !el.closest('[inert]') && el.offsetParent !== null && el.value.startsWith('>'), undefined, { timeout: 500 })
        .catch(() => false);
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.page.keyboard.press('F1');
      const end = Date.now() + 1500;
      while (Date.now() < end) {
        if (await open()) return;
        await this.page.waitForTimeout(100);
      }
      await this.page.locator('.part.statusbar').first().click({ position: { x: 2, y: 2 } });
    }
    throw new Error('the command palette did not open (F1 five times)');
  }

  /** Waits for the quick input to show a title containing this text. */
  async waitForQuickInputTitle(text: string | RegExp, timeout = 20_000): Promise<void> {
    await this.quickInput.locator('.quick-input-title', { hasText: text }).waitFor({ timeout });
  }

  async quickInputVisible(): Promise<boolean> {
    return this.quickInput.isVisible();
  }

  async waitForQuickInputHidden(timeout = 20_000): Promise<void> {
    await this.quickInput.waitFor({ state: 'hidden', timeout });
  }

  /** The visible rows' texts. */
  async quickPickRows(): Promise<string[]> {
    return this.quickInput.locator('.quick-input-list .monaco-list-row').allInnerTexts();
  }

  /** Types into the quick input filter or input box (replacing what is there). */
  async typeInQuickInput(text: string): Promise<void> {
    const input = this.quickInput.locator('input.input, input').first();
    await input.fill(text);
  }

  /** Filters the quick pick to a row and accepts it. */
  async pick(label: string): Promise<void> {
    await this.typeInQuickInput(label);
    await this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
    await this.page.keyboard.press('Enter');
  }

  /** Clicks a row of the visible quick pick. */
  async clickRow(label: string | RegExp): Promise<void> {
    await this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().click();
  }

  async quickInputMessage(): Promise<string> {
    return (await this.quickInput.locator('.quick-input-message').innerText().catch(() => '')).trim();
  }

  async placeholder(): Promise<string> {
    return (await this.quickInput.locator('input').first().getAttribute('placeholder')) ?? '';
  }

  /** Opens our activity bar container. */
  async openAgentInputs(): Promise<void> {
    const header = this.page.locator('.pane-header', { hasText: /Servers/i }).first();
    const entry = this.page.locator('.activitybar .action-item', { has: this.page.locator('[aria-label^="Agent Inputs"]') }).first();
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await header.isVisible()) return;
      // A click on the entry of the open container would close it (after a reload it may be opening already).
      // The entry itself, not its icon: the badge of waiting questions lies over the icon.
      if (!/\bchecked\b/.test((await entry.getAttribute('class')) ?? '')) await entry.click();
      try {
        await header.waitFor({ timeout: 10_000 });
        return;
      } catch {
        // It was opening as we clicked, and the click closed it: look again.
      }
    }
    await header.waitFor();
  }

  /** Texts of the rows in a view pane (by its title). */
  async viewRows(paneTitle: RegExp): Promise<string[]> {
    const pane = this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: paneTitle }) }).first();
    return pane.locator('.monaco-list-row').allInnerTexts();
  }

  /** Polls a view's rows until `ready` holds (virtual lists render late); returns the last rows seen. */
  async waitForViewRows(paneTitle: RegExp, ready: (rows: string[]) => boolean, timeout = 20_000): Promise<string[]> {
    const end = Date.now() + timeout;
    let rows: string[] = [];
    while (Date.now() < end) {
      rows = await this.viewRows(paneTitle);
      if (ready(rows)) break;
      await this.page.waitForTimeout(200);
    }
    return rows;
  }

  /** A modal dialog (showWarningMessage / showInformationMessage with modal: true). */
  get dialog(): Locator {
    return this.page.locator('.monaco-dialog-box');
  }

  /**
   * After a failed step: close what is left on screen (a modal dialog, a quick input) so the
   * next scenario starts from a clear workbench instead of failing behind a modal.
   */
  async dismissLeftovers(): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const open = (await this.dialog.isVisible().catch(() => false)) || (await this.quickInputVisible().catch(() => false));
      if (!open) return;
      await this.page.keyboard.press('Escape');
      await this.page.waitForTimeout(200);
    }
  }

  async clickDialogButton(label: string): Promise<void> {
    await this.dialog.locator('.monaco-button', { hasText: new RegExp(`^${label}$`) }).first().click();
  }

  /** Every notification's text: the toasts and the notification center (toasts may already be gone). */
  async notifications(): Promise<string[]> {
    const toasts = await this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    await this.runCommand('Notifications: Show Notifications');
    const center = this.page.locator('.notifications-center');
    await center.waitFor({ timeout: 5000 }).catch(() => undefined);
    const listed = await center.locator('.notification-list-item-message').allInnerTexts();
    await this.page.keyboard.press('Escape');
    return [...toasts, ...listed];
  }

  async waitForNotification(text: RegExp, timeout = 20_000): Promise<string> {
    const end = Date.now() + timeout;
    for (;;) {
      const found = (await this.notifications()).find((n) => text.test(n));
      if (found) return found;
      if (Date.now() > end) throw new Error(`no notification matched ${text}; seen: ${(await this.notifications()).join(' | ')}`);
      await this.page.waitForTimeout(500);
    }
  }

  /** Our status bar item (pending inputs). */
  get pendingStatusItem(): Locator {
    return this.page.locator('.statusbar-item[id$="elicitationHost.pending"]').first();
  }

  /** The pending-inputs status text, or '' when hidden. */
  async pendingStatus(): Promise<string> {
    const item = this.pendingStatusItem;
    // It may vanish between the two calls: that reads as hidden.
    return (await item.isVisible()) ? (await item.innerText({ timeout: 500 }).catch(() => '')).trim() : '';
  }

  /** The active editor's visible text. */
  async editorText(): Promise<string> {
    // The active group's editor: another group can hold a text editor too (it comes first in the page).
    const active = this.page.locator('.editor-group-container.active .editor-instance .view-lines');
    const text = await ((await active.count()) > 0 ? active : this.page.locator('.editor-instance .view-lines')).first().innerText();
    // The editor renders spaces as no-break spaces.
    return text.replace(/\u00a0/g, ' ');
  }

  /**
   * The active editor's text once it matches `expected`: an editor's tab comes before its
   * document's content (a content provider answers later, more so on a busy machine).
   */
  async waitForEditorText(expected: RegExp, timeoutMs = 20_000): Promise<string> {
    return waitUntil(`the editor to show ${expected}`, async () => {
      const text = await this.editorText().catch(() => '');
      return expected.test(text) ? text : undefined;
    }, timeoutMs);
  }

  /** The document inside the visible webview (a webview kept hidden behind another tab can come first in the page). */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready:visible').first().frameLocator('#active-frame');
  }
}
