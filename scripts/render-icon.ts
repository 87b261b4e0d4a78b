/**
 * Renders the extension's icon, media/icon.svg, to the PNG the Marketplace, Open VSX and the
 * Extensions view show (media/icon.png, 256 px: they want at least 128 and scale it down),
 * with the Chromium the end-to-end tests drive. Run it after changing the SVG:
 *
 *   npx tsx scripts/render-icon.ts
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchChromium } from '../test/e2e/harness/browser';

const REPO = resolve(__dirname, '..');
const SIZE = 256;

async function main(): Promise<void> {
  const svg = readFileSync(join(REPO, 'media/icon.svg'), 'utf8');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`);
    // Transparent around the rounded square, as the SVG is.
    await page.locator('svg').screenshot({ path: join(REPO, 'media/icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
  console.log(`media/icon.png: ${SIZE}×${SIZE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
