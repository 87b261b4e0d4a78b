/**
 * The Agent Input page as the panel serves it: the HTML and its Content-Security-Policy.
 * Free of `vscode`, so the page tests in headless Chromium load exactly this page, under
 * exactly this policy.
 */
import type { FormView } from '../../shared/protocol';

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

/**
 * Nothing but the page's own script and styles. The stylesheet is inlined under the nonce
 * (not 'unsafe-inline'): fetching it through the webview's resource loader is a large part
 * of a new panel's start-up. The page writes no style attribute (the one value it sets at run
 * time, the sticky bar's height, goes through the CSSOM, which style-src does not govern).
 * No img-src: the page loads no images (its chevron and ticks are drawn by CSS).
 */
export function formPageCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** `</script` or `</style` inside inlined text would end its element early. */
export function inlinable(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
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

/** A page of ours: the policy, the inlined styles under the nonce, the title, and its body (whose scripts carry the nonce). */
export function pageDocument(page: { readonly cspSource: string; readonly nonce: string; readonly styles: string; readonly title: string; readonly body: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${formPageCsp(page.cspSource, page.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${page.nonce}">${inlinable(page.styles, 'style')}</style>
<title>${page.title}</title>
</head>
<body>
${page.body}
</body>
</html>`;
}
