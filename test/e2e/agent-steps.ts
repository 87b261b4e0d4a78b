/**
 * Steps the agents' UI scenarios share (ui-agents, ui-agent-sessions, ui-agent-servers):
 * finding an agent's session page and our form among the workbench's frames, starting a
 * session from the palette, sending a prompt once the last turn has ended, waiting for a
 * reply, and the Agents view and its rows.
 */
import type { Frame, Locator } from 'playwright-core';
import { waitUntil } from '../support/wait';
import type { Workbench } from './harness/workbench';

/** The first of the workbench's frames (webviews) not in `seenBefore` whose document `shows` holds for, waited for. */
async function findFrame(workbench: Workbench, what: string, shows: (frame: Frame) => Promise<boolean>, timeout = 30_000, seenBefore: ReadonlySet<Frame> = new Set()): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    what,
    async () => {
      for (const frame of workbench.page.frames().filter((f) => !seenBefore.has(f))) {
        if (await shows(frame).catch(() => false)) {
          found = frame;
          return true;
        }
      }
      return false;
    },
    timeout,
  );
  return found!;
}

/** Which session page: the one with this title, and one not among the frames seen before. */
export interface SessionPageOf {
  readonly title?: string | undefined;
  readonly seenBefore?: ReadonlySet<Frame> | undefined;
}

/** The session page's frame: the webview whose document has the transcript, headed with this agent (and this title, when given). */
export function sessionFrame(workbench: Workbench, agent: string, which: SessionPageOf = {}): Promise<Frame> {
  const title = which.title ?? '';
  return findFrame(
    workbench,
    `the session panel of ${agent}${title ? ` · ${title}` : ''}`,
    (frame) =>
      frame.evaluate(([a, t]) => {
        const heading = document.getElementById('title')?.textContent ?? '';
        return document.getElementById('transcript') !== null && (t ? heading === `${a} · ${t}` : heading.startsWith(`${a} · `));
      }, [agent, title]),
    30_000,
    which.seenBefore,
  );
}

/** The form panel's frame, once it shows this message. */
export function formFrame(workbench: Workbench, message: string, timeout = 30_000): Promise<Frame> {
  return findFrame(workbench, `our form "${message}"`, (frame) => frame.evaluate((m) => document.querySelector('h1.message')?.textContent === m, message), timeout);
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

/** New Agent Session… from the palette, for this agent; its session page once it opens. */
export async function newSession(workbench: Workbench, agent: string): Promise<Frame> {
  await workbench.runCommand('Elicitation Host: New Agent Session…');
  await workbench.waitForQuickInputTitle('New Agent Session');
  await workbench.pick(agent);
  return sessionFrame(workbench, agent);
}

/** A row of the Agents view (the first whose text matches). */
export function agentsRow(workbench: Workbench, text: string | RegExp): Locator {
  const pane = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: /^Agents/ }) }).first();
  return pane.locator('.monaco-list-row', { hasText: text }).first();
}

/**
 * A row of the Agents view, once it is shown whole: the list is virtual and the view short
 * (VS Code 1.103's shorter still), so a row below its fold is not in the page, or is cut, until
 * the list is scrolled to it. Scrolled a little at a time to the end, then from the top again,
 * as rows come and go while the view fills.
 */
export async function agentsRowInView(workbench: Workbench, text: string | RegExp, timeoutMs = 30_000): Promise<Locator> {
  const pane = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header', { hasText: /^Agents/ }) }).first();
  const row = pane.locator('.monaco-list-row', { hasText: text }).first();
  const list = pane.locator('.monaco-list').first();
  const whole = async (): Promise<boolean> => {
    if (!(await row.isVisible())) return false;
    const [r, l] = await Promise.all([row.boundingBox(), list.boundingBox()]);
    return r !== null && l !== null && r.y >= l.y - 1 && r.y + r.height <= l.y + l.height + 1;
  };
  const end = Date.now() + timeoutMs;
  for (let step = 0; !(await whole()); step++) {
    if (Date.now() > end) throw new Error(`the Agents view showed no row ${String(text)} within ${timeoutMs} ms: ${(await workbench.viewRows(/^Agents/)).join(' | ')}`);
    await list.hover();
    await workbench.page.mouse.wheel(0, step % 8 === 7 ? -10_000 : 120);
    await workbench.page.waitForTimeout(150);
  }
  return row;
}

/** Opens the Agents view (it starts collapsed while the Servers view keeps its room). */
export async function openAgentsView(workbench: Workbench): Promise<void> {
  await workbench.openAgentInputs();
  const header = workbench.page.locator('.pane-header', { hasText: /^Agents/ }).first();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
}
