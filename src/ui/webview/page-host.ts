/**
 * The room `src/ui/webview/`: what every webview panel of ours shares: this file (the page
 * host) and `page-html` (a page's HTML and its Content-Security-Policy). The panels are the
 * Agent Input form's (`form/`) and each agent session's (`agents/`).
 *
 * One webview panel and its page: made with a fresh nonce for each page load, kept alive while
 * hidden, and posted to only once its page has said `ready` (the host sends nothing before
 * that: a new page starts unready). What the page sends goes to the owner as it came: each
 * panel checks it against its own protocol, and says when that was the page's `ready`.
 */
import * as vscode from 'vscode';

export interface PageSpec {
  readonly viewType: string;
  readonly title: string;
  readonly showOptions: vscode.ViewColumn | { readonly viewColumn: vscode.ViewColumn; readonly preserveFocus?: boolean };
  readonly localResourceRoots: readonly vscode.Uri[];
  readonly iconPath: vscode.Uri;
  /** The page's HTML, under this page load's nonce. Made once the panel exists and before any handler is added. */
  html(webview: vscode.Webview, nonce: string): string;
  /** A message from the page, unchecked. */
  onMessage(raw: unknown): void;
  /** The panel was closed (the person, or `dispose`). */
  onDispose?(): void;
}

/** Fresh for every page load: only the page's own script and stylesheet carry it. */
function pageNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}

export class PageHost<HostMessage> implements vscode.Disposable {
  private current: vscode.WebviewPanel | undefined;
  private ready = false;

  /** The open panel, if any (undefined once closed). */
  get panel(): vscode.WebviewPanel | undefined {
    return this.current;
  }

  /** Makes the panel and loads its page; the page is not ready until it says so. */
  open(spec: PageSpec): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(spec.viewType, spec.title, spec.showOptions, {
      enableScripts: true,
      // Kept alive while hidden behind other tabs: switching back is instant and nothing typed is lost.
      retainContextWhenHidden: true,
      localResourceRoots: [...spec.localResourceRoots],
    });
    panel.iconPath = spec.iconPath;
    this.ready = false;
    panel.webview.html = spec.html(panel.webview, pageNonce());
    panel.webview.onDidReceiveMessage((raw: unknown) => spec.onMessage(raw));
    panel.onDidDispose(() => {
      if (this.current === panel) this.current = undefined;
      spec.onDispose?.();
    });
    this.current = panel;
    return panel;
  }

  /** The page said `ready`: what is posted from now on reaches it. */
  pageReady(): void {
    this.ready = true;
  }

  /** Posts to the page; false (nothing sent) while there is no panel or its page is not ready. */
  post(message: HostMessage): boolean {
    if (!this.current || !this.ready) return false;
    void this.current.webview.postMessage(message);
    return true;
  }

  dispose(): void {
    this.current?.dispose();
  }
}
