/**
 * The Agent Input page as the panel serves it: its HTML, in the page every panel of ours
 * serves (webview/page-html.ts: the Content-Security-Policy, the inlined styles). Free of
 * `vscode`, so the page tests in headless Chromium load exactly this page, under exactly
 * this policy.
 */
import type { FormView } from '../../shared/protocol';
import { inlinable, pageDocument } from '../webview/page-html';

export interface FormPageParts {
  /** Where the webview's own resources come from (`webview.cspSource`). */
  readonly cspSource: string;
  /** Fresh for every page load: only the page's own script and stylesheet carry it. */
  readonly nonce: string;
  /** The built page script (dist/webview/main.js). */
  readonly script: string;
  /** The built stylesheet (dist/webview/styles.css). */
  readonly styles: string;
  /**
   * Where the page's pattern matcher and format checks (dist/webview/checks.js: re2js, as
   * large as the page itself, and ajv-formats) load from. The page fetches it once it has
   * loaded (VS Code shows a new page's frame at its load event, which a script still loading
   * would hold back), so neither the first render nor the form's showing waits for it; until
   * it arrives the host's check on submit judges patterns and formats.
   */
  readonly checksScript?: string;
  /** The form to show at once, if one is waiting. */
  readonly initialForm?: FormView;
}

export function formPageHtml(parts: FormPageParts): string {
  const { cspSource, nonce, initialForm } = parts;
  // The current form travels inside the page (JSON in an inert script element, `<` escaped so
  // server text cannot end it), so the first render needs no round trip through the host.
  const initial = initialForm
    ? `<script type="application/json" id="initial-form">${JSON.stringify(initialForm).replace(/</g, '\\u003c')}</script>`
    : '';
  return pageDocument({
    cspSource,
    nonce,
    styles: parts.styles,
    title: 'Agent Input',
    body: `<main id="app"${parts.checksScript ? ` data-checks="${parts.checksScript.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"` : ''}></main>
${initial}
<script nonce="${nonce}">${inlinable(parts.script, 'script')}</script>`,
  });
}
