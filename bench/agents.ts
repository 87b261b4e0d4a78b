/// <reference lib="dom" />
/**
 * An ACP agent's question on screen, against the same question from an MCP server, in one
 * workbench: the fixture agent (`confirm`) and the fixture server (`ask_later`) each ask the
 * same yes/no ("… has a question of its own: proceed?") the same quiet time after the person's
 * action (a prompt sent in the session panel; Run Tool's pickers closing), and each is timed
 * from its arrival in the extension host (the broker's `createdAt`, recorded by the benchmark
 * build) to the quick input showing it. Interleaved, pair by pair; the ratio is the median of
 * the agent's over the median of the server's.
 */
import type { Frame, Page } from 'playwright-core';
import { FIXTURES } from '../test/e2e/context';
import type { Ui } from '../test/e2e/ui-setup';
import { type ResultTabs, runTool } from '../test/e2e/ui-steps';
import { waitUntil } from '../test/support/wait';
import { events } from './forms';
import { CONFIRM_AFTER_MS } from './quiet';
import type { Figures } from './row';
import { median, round } from './stats';

const SAMPLES = 20;

/** The user setting that configures the fixture agent for this bench. */
export function benchAgentSettings(): Record<string, unknown> {
  return { fixture: { command: process.execPath, args: [`${FIXTURES}/acp-agent.js`] } };
}

/** The page time at which the quick input shows a title with `title` and `text` in it. */
export function stampQuickInput(page: Page, title: string, text: string): Promise<number> {
  return page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const w = document.querySelector('.quick-input-widget');
      if (!w || getComputedStyle(w).display === 'none') return false;
      const t = w.querySelector('.quick-input-title');
      return !!t && t.textContent.includes(${JSON.stringify(title)}) && w.textContent.includes(${JSON.stringify(text)});
    };
    const stamp = () => { if (!check()) return false; resolve(performance.timeOrigin + performance.now()); return true; };
    if (stamp()) return;
    const observer = new MutationObserver(() => { if (stamp()) observer.disconnect(); });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })`) as Promise<number>;
}

/** The frame of a session page not among `before` (a new session's). */
async function sessionFrame(page: Page, before: ReadonlySet<Frame>): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    'the session panel',
    async () => {
      for (const frame of page.frames()) {
        if (before.has(frame)) continue;
        if (await frame.evaluate(() => document.getElementById('transcript') !== null).catch(() => false)) {
          found = frame;
          return true;
        }
      }
      return false;
    },
    60_000,
  );
  return found!;
}

/** A new session of the fixture agent's, as a person starts one (its session form taken as it is): its page's frame. */
export async function newFixtureSession(ui: Ui): Promise<Frame> {
  const page = ui.workbench.page;
  const before = new Set(page.frames());
  await ui.workbench.runCommand('Elicitation Host: New Agent Session…');
  // The fixture agent first sends its session form (the Session Input Options proposal): taken as it is.
  let options: Frame | undefined;
  await waitUntil(
    "the agent's session form",
    async () => {
      for (const f of page.frames()) {
        if (await f.evaluate(() => document.querySelector('h1.message')?.textContent?.startsWith('fixture: options for the new session') === true).catch(() => false)) options = f;
      }
      return options !== undefined;
    },
    60_000,
  );
  await options!.locator('button', { hasText: 'Submit' }).click();
  return sessionFrame(page, before);
}

export async function benchAgents(ui: Ui, benchLog: string, results: ResultTabs): Promise<Figures> {
  const { workbench } = ui;
  const page = workbench.page;
  process.stdout.write(`agents: ${SAMPLES} yes/no questions from an ACP agent vs ${SAMPLES} from an MCP server…\n`);
  const frame = await newFixtureSession(ui);
  const arrival = (): number => Number(events(benchLog).filter((e) => e.event === 'questionArrived').at(-1)?.at);
  const agent: number[] = [];
  const server: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    // The agent's: a prompt sent in the session panel, the question CONFIRM_AFTER_MS later.
    await waitUntil('the session to take a prompt', () => frame.locator('#send').isEnabled(), 30_000);
    const agentShown = stampQuickInput(page, 'fixture', 'has a question of its own');
    agentShown.catch(() => undefined);
    await frame.locator('#prompt').fill(`confirm ${CONFIRM_AFTER_MS}`);
    await frame.locator('#prompt').press('Enter');
    const agentAt = await agentShown;
    agent.push(agentAt - arrival());
    await workbench.clickRow(/Accept/);
    await workbench.waitForQuickInputHidden();

    // The server's: Run Tool, the question CONFIRM_AFTER_MS after its pickers closed.
    const serverShown = stampQuickInput(page, 'fixture', 'has a question of its own');
    serverShown.catch(() => undefined);
    await runTool(workbench, 'fixture', 'ask_later', String(CONFIRM_AFTER_MS));
    const serverAt = await serverShown;
    server.push(serverAt - arrival());
    await workbench.clickRow(/Accept/);
    await ui.nextRecord('ask_later');
    await workbench.waitForQuickInputHidden();
    await results.next();
  }
  const agentMedian = median(agent);
  const serverMedian = median(server);
  const ratio = round(agentMedian / serverMedian, 2);
  return {
    results: {
      agents: { samples: SAMPLES, agentMedianMs: round(agentMedian, 1), serverMedianMs: round(serverMedian, 1), ratio, agentSamplesMs: agent.map((v) => round(v, 1)), serverSamplesMs: server.map((v) => round(v, 1)) },
    },
    rows: [
      {
        measure: `an ACP agent's yes/no on screen, from its arrival in the extension host (median of ${SAMPLES}, interleaved)`,
        ours: `${round(agentMedian, 1)} ms`,
        baseline: `${round(serverMedian, 1)} ms (the same question from an MCP server)`,
        ratio,
        target: '<= 1.1',
      },
    ],
  };
}
