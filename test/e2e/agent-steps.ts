/**
 * Steps the agents' UI scenarios share: finding an agent's session page and our form among
 * the workbench's frames, starting a session from the palette, sending a prompt once the last
 * turn has ended, and waiting for a reply.
 */
import type { Frame } from 'playwright-core';
import { waitUntil } from '../support/wait';
import type { Workbench } from './harness/workbench';

/** The session page's frame: the webview whose document has the transcript, headed with this agent (a frame not in `seenBefore`). */
export async function sessionFrame(workbench: Workbench, agent: string, seenBefore: ReadonlySet<Frame> = new Set()): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    `the session panel of ${agent}`,
    async () => {
      for (const frame of workbench.page.frames().filter((f) => !seenBefore.has(f))) {
        if (await frame.evaluate((a) => document.getElementById('transcript') !== null && (document.getElementById('title')?.textContent ?? '').startsWith(`${a} · `), agent).catch(() => false)) {
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

/** The form panel's frame, once it shows this message. */
export async function formFrame(workbench: Workbench, message: string, timeout = 30_000): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    `our form "${message}"`,
    async () => {
      for (const frame of workbench.page.frames()) {
        const shown = await frame.evaluate((m) => document.querySelector('h1.message')?.textContent === m, message).catch(() => false);
        if (shown) {
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
