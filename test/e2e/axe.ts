/**
 * axe-core in a webview's frame: its source evaluated in the frame (through the browser's
 * debugging protocol, which the page's Content-Security-Policy does not govern, so the page
 * keeps its policy), then a run over the whole document.
 */
import { readFileSync } from 'node:fs';
import type { Frame } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Each violation as `rule: the elements it found` (empty when axe finds none). */
export async function axeViolations(frame: Frame): Promise<string[]> {
  if (!(await frame.evaluate('typeof window.axe === "object"'))) await frame.evaluate(AXE_SOURCE);
  // A string: the test runner's transform would name functions with a helper the page lacks.
  const found = (await frame.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ') + ' (' + n.failureSummary + ')') })))`)) as Array<{ id: string; help: string; nodes: string[] }>;
  return found.map((v) => `${v.id} (${v.help}): ${v.nodes.join('; ')}`);
}
