/**
 * A page of ours as its panel serves it: the HTML around a page's body and its
 * Content-Security-Policy (nothing but the page's own inlined script and styles, under a
 * fresh nonce). The form page (form/form-page.ts) and an agent's session page
 * (agents/session-page.ts) are both made with it. Free of `vscode`, so the page tests in
 * headless Chromium load exactly these pages, under exactly this policy.
 */

/**
 * Nothing but the page's own script and styles. The stylesheet is inlined under the nonce
 * (not 'unsafe-inline'): fetching it through the webview's resource loader is a large part
 * of a new panel's start-up. The page writes no style attribute (the one value the form page
 * sets at run time, the sticky bar's height, goes through the CSSOM, which style-src does not
 * govern). No img-src: the pages load no images (the form's chevron and ticks are drawn by CSS).
 */
export function pageCsp(cspSource: string, nonce: string): string {
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

/** A page of ours: the policy, the inlined styles under the nonce, the title, and its body (whose scripts carry the nonce). */
export function pageDocument(page: { readonly cspSource: string; readonly nonce: string; readonly styles: string; readonly title: string; readonly body: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${pageCsp(page.cspSource, page.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${page.nonce}">${inlinable(page.styles, 'style')}</style>
<title>${page.title}</title>
</head>
<body>
${page.body}
</body>
</html>`;
}
