/**
 * Driving the VS Code web workbench with Playwright: the command palette, quick input,
 * views, dialogs and webviews, with selectors checked against 1.139 and 1.100.
 */
import { join } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { screenshot } from './browser';
import type { RunningVsCode } from './server';

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly resultsDir: string,
  ) {}

  /** Opens a folder in a new page and waits until the workbench and our extension are up. */
  static async open(browser: Browser, server: RunningVsCode, folder: string, resultsDir: string): Promise<Workbench> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(server.workbenchUrl({ folder }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const workbench = new Workbench(page, resultsDir);
    // Our activity bar entry appears once the extension's contributions are registered.
    await page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
    return workbench;
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

  /** Runs a command by its palette title. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.quickInput.locator('input');
    await input.waitFor();
    await input.fill(`>${title}`);
    const row = this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor();
    await this.page.keyboard.press('Enter');
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
    await this.page.locator('.activitybar [aria-label^="Agent Inputs"]').first().click();
    await this.page.locator('.pane-header', { hasText: /Servers/i }).first().waitFor();
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

  async clickDialogButton(label: string): Promise<void> {
    await this.dialog.locator('.monaco-button', { hasText: new RegExp(`^${label}$`) }).first().click();
  }

  /** Notification toasts' texts. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
  }

  async waitForNotification(text: string | RegExp, timeout = 20_000): Promise<void> {
    await this.page.locator('.notification-toast .notification-list-item-message', { hasText: text }).first().waitFor({ timeout });
  }

  /** The status bar item of ours (pending inputs), or '' when hidden. */
  async pendingStatus(): Promise<string> {
    const item = this.page.locator('#elicitation-host\\.elicitation-host\\.elicitationHost\\.pending, .statusbar-item[id$="elicitationHost.pending"]').first();
    return (await item.isVisible()) ? (await item.innerText()).trim() : '';
  }

  /** The active editor's visible text. */
  async editorText(): Promise<string> {
    const text = await this.page.locator('.editor-instance .view-lines').first().innerText();
    // The editor renders spaces as no-break spaces.
    return text.replace(/\u00a0/g, ' ');
  }

  /** The document inside the (single) visible webview. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
  }
}
