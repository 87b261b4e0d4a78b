/**
 * Steps the agent scenarios share (ui-agents, ui-agent-sessions): finding a session panel's
 * page and our form's page among the workbench's frames, sending a prompt once the previous
 * turn has ended, waiting for a reply in the transcript, and a row of the Agents view.
 */
import type { Frame, Locator } from 'playwright-core';
import { waitUntil } from '../support/wait';
import type { Workbench } from './harness/workbench';

/** The first of the workbench's frames (webviews) whose document `shows` holds for, waited for. */
async function findFrame(workbench: Workbench, what: string, shows: (frame: Frame) => Promise<boolean>): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    what,
    async () => {
      for (const frame of workbench.page.frames()) {
        if (await shows(frame).catch(() => false)) {
          found = frame;
          return true;
        }
      }
      return false;
    },
    30_000,
  );
  return found!;
}

/** The session page's frame: the webview whose document has the transcript, headed with this agent (and this title, when given). */
export function sessionFrame(workbench: Workbench, agent: string, title?: string): Promise<Frame> {
  return findFrame(workbench, `the session panel of ${agent}${title ? ` · ${title}` : ''}`, (frame) =>
    frame.evaluate(([a, t]) => {
      const heading = document.getElementById('title')?.textContent ?? '';
      return document.getElementById('transcript') !== null && (t ? heading === `${a} · ${t}` : heading.startsWith(`${a} · `));
    }, [agent, title ?? '']),
  );
}

/** The form panel's frame. */
export function formFrame(workbench: Workbench, message: string): Promise<Frame> {
  return findFrame(workbench, `our form "${message}"`, (frame) => frame.evaluate((m) => document.querySelector('h1.message')?.textContent === m, message));
}

/** Sends a prompt once the previous turn has ended (Send is off while a turn runs). */
export async function send(frame: Frame, text: string): Promise<void> {
  await waitUntil('the previous turn to end', () => frame.locator('#send').isEnabled(), 90_000);
  await frame.locator('#prompt').fill(text);
  await frame.locator('#prompt').press('Enter');
}

/** Waits for the transcript to contain `text`; returns the transcript's text. */
export async function reply(frame: Frame, text: string | RegExp, timeout = 60_000): Promise<string> {
  let all = '';
  await waitUntil(
    `the reply ${String(text)}`,
    async () => {
      all = (await frame.locator('#transcript').innerText()).replace(/\u00a0/g, ' ');
      return typeof text === 'string' ? all.includes(text) : text.test(all);
    },
    timeout,
  );
  return all;
}

/** A row of the Agents view (the first whose text matches). */
export function agentsRow(workbench: Workbench, text: string | RegExp): Locator {
  const pane = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: /^Agents/ }) }).first();
  return pane.locator('.monaco-list-row', { hasText: text }).first();
}

/** Opens the Agents view (it starts collapsed while the Servers view keeps its room). */
export async function openAgentsView(workbench: Workbench): Promise<void> {
  await workbench.openAgentInputs();
  const header = workbench.page.locator('.pane-header', { hasText: /^Agents/ }).first();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
}
