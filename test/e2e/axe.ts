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
  const { passed, found } = (await frame.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => ({ passed: r.passes.length, found: r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ') + ' (' + n.failureSummary + ')') })) }))`)) as { passed: number; found: Array<{ id: string; help: string; nodes: string[] }> };
  // No violation because no rule applied would prove nothing.
  if (passed === 0) throw new Error('axe checked no rule on the page');
  return found.map((v) => `${v.id} (${v.help}): ${v.nodes.join('; ')}`);
}
