/**
 * Activation: our extension's activation time against an empty extension's, both installed
 * from a .vsix, both activated on `onStartupFinished`, in the same workbench and run, over
 * several window loads. The times are VS Code's own (Developer: Show Running Extensions:
 * code loading plus the activate call), read from that view.
 */
/// <reference lib="dom" />
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packTestExtension } from '../test/e2e/test-extensions';
import { startUi } from '../test/e2e/ui-setup';
import { waitUntil } from '../test/support/wait';
import { events } from './forms';
import { median, round } from './stats';

const OURS = 'Elicitation Host';
const EMPTY = 'Empty Extension (benchmark)';

export interface ActivationResult {
  readonly loads: number;
  readonly oursMedianMs: number;
  readonly emptyMedianMs: number;
  readonly ratio: number;
  readonly oursMs: readonly number[];
  readonly emptyMs: readonly number[];
  /**
   * Ours in parts, as the benchmark build stamps them (bench/extension-hooks.ts), medians. In
   * VS Code's figure: dist/extension.js's top-level code, and the activate call up to its first
   * wait (VS Code's figure adds reading and compiling the bundle, and its own bookkeeping). After
   * it, outside the figure: the wait for the next turn, loading dist/extension-main.js (its
   * top-level code beside it), and the extension proper's activation up to its first wait.
   */
  readonly breakdownMedianMs: Readonly<Record<(typeof PARTS)[number], number>>;
}

const PARTS = ['moduleMs', 'activateCallMs', 'afterActivateMs', 'mainLoadMs', 'mainModuleMs', 'mainActivateMs'] as const;

export async function benchActivation(loads = 10): Promise<ActivationResult> {
  const dir = mkdtempSync(join(tmpdir(), 'eh-bench-activation-'));
  const benchLog = join(dir, 'bench.jsonl');
  writeFileSync(benchLog, '');
  const ui = await startUi('activation', {}, { ELICITATION_HOST_BENCH_LOG: benchLog }, undefined, [packTestExtension('empty-extension', dir)]);
  const ours: number[] = [];
  const empty: number[] = [];
  const parts: Array<Record<string, unknown>> = [];
  try {
    const { workbench } = ui;
    for (let i = 0; i < loads; i++) {
      if (i > 0) await workbench.page.reload();
      // Our extension's container is there (its contributions are read): the window has loaded it.
      await workbench.page.locator('.activitybar [aria-label^="Agent Inputs"]').first().waitFor({ timeout: 60_000 });
      await workbench.runCommand('Developer: Show Running Extensions');
      // The list is virtual and sorted by time: page down through it, reading the rows on screen.
      const seen = new Map<string, number>();
      const activating = new Set<string>();
      let focused = false;
      const list = workbench.page.locator('.runtime-extensions-editor .monaco-list').first();
      await list.waitFor({ timeout: 30_000 });
      const times = await waitUntil(
        'both activation times in Running Extensions',
        async () => {
          for (const row of await list.locator('.monaco-list-row').allInnerTexts()) {
            const name = row.split('\n')[0]?.trim() ?? '';
            const match = /Activation: (\d+)ms/.exec(row);
            if (match) seen.set(name, Number(match[1]));
            // Listed, but its activate has not finished (VS Code gives no time until it has).
            else if (/Activating/.test(row)) activating.add(name);
          }
          const o = seen.get(OURS);
          const e = seen.get(EMPTY);
          if (o !== undefined && e !== undefined) return { o, e };
          if (!focused) {
            await list.locator('.monaco-list-row').first().click();
            focused = true;
          }
          await workbench.page.keyboard.press('PageDown');
          return undefined;
        },
        60_000,
      ).catch(async (error: unknown) => {
        const shot = await workbench.screenshot('FAILED-activation');
        throw new Error(`${error instanceof Error ? error.message : String(error)} (screenshot: ${shot}; seen: ${[...seen].map(([n, t]) => `${n} ${t} ms`).join(', ')}; still activating: ${[...activating].join(', ') || 'none'})`);
      });
      ours.push(times.o);
      empty.push(times.e);
    }
    parts.push(...events(benchLog).filter((r) => r.event === 'activation'));
  } finally {
    await ui.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const o = median(ours);
  const e = median(empty);
  const breakdownMedianMs = Object.fromEntries(PARTS.map((part) => [part, round(median(parts.map((r) => Number(r[part]))), 1)])) as ActivationResult['breakdownMedianMs'];
  return { loads, oursMedianMs: round(o, 1), emptyMedianMs: round(e, 1), ratio: round(o / Math.max(e, 1), 2), oursMs: ours, emptyMs: empty, breakdownMedianMs };
}
