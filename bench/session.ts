/// <reference lib="dom" />
/**
 * A long ACP session in the real workbench (`npm run bench -- session`), each figure against a
 * baseline of the same run:
 *
 * 1. Streaming: the fixture agent streams a 1,000,000-character reply in 40-character chunks
 *    (25,000 chunks). The extension host's busy time (session-hooks.ts) for the first and the
 *    last 1,000 chunks, and in all, against a plain accumulator that posts each chunk to a
 *    plain webview appending it as text (same agent, same client, same stream), pairs in turn.
 * 2. The page: the frames of the session page while that reply streams (requestAnimationFrame
 *    intervals, read in its frame), against the plain webview's, and against the same page's
 *    frames with nothing to draw just before (the floor: the machine's load, the clock); and the
 *    page's element count however long the session. A frame's interval is counted in display
 *    frames (vsync periods, the idle page's median interval): the page's clock is coarsened to
 *    0.1 ms with jitter (as Chromium does for a page not cross-origin isolated), so a frame on
 *    time reads 16.6 to 16.8 ms, and "over 16.7 ms" would count the clock, not late frames.
 * 3. Memory: the extension host's heap and the page's (garbage collected) in a new session,
 *    before and after 10,000 tool calls and 10,000,000 characters of reply, and after Close Session.
 */
import type { CDPSession, Frame, Page } from 'playwright-core';
import type { Ui } from '../test/e2e/ui-setup';
import { waitUntil } from '../test/support/wait';
import { ELEMENTS_SHOWN } from '../webview/session/transcript-view';
import { newFixtureSession } from './agents';
import { events } from './forms';
import type { Figures, Row } from './row';
import { inTurn, median, medianInterval, percentile, round } from './stats';

const PAIRS = Number(process.env.SESSION_BENCH_PAIRS ?? 6);
const REPLY_CHARS = 1_000_000;
const TOOL_CALLS = Number(process.env.SESSION_BENCH_TOOLS ?? 10_000);
const TOOL_OUTPUT = 2_000;
const LONG_REPLY = Number(process.env.SESSION_BENCH_LONG ?? 10_000_000);

interface HostTurn {
  readonly side: 'ours' | 'plain';
  readonly chunks: number;
  /** Chunks between two marks. */
  readonly perMark: number;
  readonly marks: readonly number[];
  readonly afterChunks: number;
  readonly end: number;
}

interface Frames {
  readonly intervals: readonly number[];
}

/**
 * Watches the frames of a page: each requestAnimationFrame's time since the one before, and
 * the page's changes. `__framesStop()` gives the frames up to the page's last change (the
 * frames while it drew what streamed; not the idle ones after it).
 */
const RECORD_FRAMES = `(() => {
  const frames = [];
  let last = 0;
  let changed = 0;
  let stopped = false;
  const loop = (t) => {
    if (stopped) return;
    if (last) frames.push([t, t - last]);
    last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  const observer = new MutationObserver(() => { changed = performance.now(); });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  window.__framesStop = () => {
    stopped = true;
    observer.disconnect();
    return { intervals: frames.filter(([t]) => t <= changed + 20).map(([, d]) => Math.round(d * 10) / 10) };
  };
})()`;

/** The frames' intervals of a page with nothing to draw, for `ms`. */
const idleFrames = (ms: number): string => `new Promise((resolve) => {
  const frames = [];
  let last = 0;
  const end = performance.now() + ${ms};
  const loop = (t) => {
    if (last) frames.push(Math.round((t - last) * 10) / 10);
    last = t;
    if (t < end) requestAnimationFrame(loop);
    else resolve(frames);
  };
  requestAnimationFrame(loop);
})`;
const IDLE_MS = 1_500;

const mb = (bytes: number): number => round(bytes / 1024 / 1024, 1);

function hostTurns(benchLog: string, side: HostTurn['side']): HostTurn[] {
  return events(benchLog).filter((e) => e.event === 'hostStream' && e.side === side) as unknown as HostTurn[];
}

/** The turn's busy time in all (to a moment after its end), and over its first and its last `perMark` chunks. */
function costs(turn: HostTurn): { totalMs: number; firstMs: number; lastMs: number } {
  const m = turn.marks;
  return { totalMs: turn.end - m[0], firstMs: m[1] - m[0], lastMs: turn.afterChunks - m[m.length - 1] };
}

/** Resolves once the page has changed nothing for `quietMs` (it has drawn all it was sent). */
function settled(frame: Frame, quietMs = 750): Promise<void> {
  return frame.evaluate(`new Promise((resolve) => {
    let timer = setTimeout(done, ${quietMs});
    const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, ${quietMs}); });
    function done() { observer.disconnect(); resolve(); }
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })`) as Promise<void>;
}

/** The frame of a page whose document holds `selector`. */
async function frameWith(page: Page, selector: string, not?: Frame): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    `a frame with ${selector}`,
    async () => {
      for (const frame of page.frames()) {
        if (frame === not || frame.isDetached()) continue;
        if (await frame.evaluate((s) => document.querySelector(s) !== null, selector).catch(() => false)) {
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

/** Sends a prompt in the session page and waits for its turn to end (Send is offered again). */
async function prompt(frame: Frame, text: string, timeoutMs: number): Promise<void> {
  await waitUntil('the session to take a prompt', () => frame.locator('#send').isEnabled(), 60_000);
  await frame.locator('#prompt').fill(text);
  await frame.locator('#prompt').press('Enter');
  await waitUntil('the turn to start', () => frame.locator('#send').isDisabled(), 30_000);
  await waitUntil(`the turn "${text}" to end`, () => frame.locator('#send').isEnabled(), timeoutMs);
}

/** The page's heap in use, garbage collected (the frame's own process where it has one, else the workbench's, the webviews in it). */
async function pageHeap(page: Page, frame: Frame): Promise<{ bytes: number; of: string }> {
  let cdp: CDPSession;
  let of = "the session page's process";
  try {
    cdp = await page.context().newCDPSession(frame);
  } catch {
    cdp = await page.context().newCDPSession(page);
    of = "the workbench's renderer, the session page in it";
  }
  try {
    for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
    const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return { bytes: usage.usedSize, of };
  } finally {
    await cdp.detach();
  }
}

async function hostHeap(ui: Ui, benchLog: string): Promise<number> {
  const before = events(benchLog).filter((e) => e.event === 'heap').length;
  await ui.workbench.runCommand('Elicitation Host: Benchmark: Heap');
  const heap = await waitUntil('the heap', () => events(benchLog).filter((e) => e.event === 'heap')[before], 60_000);
  return Number(heap.heapUsed);
}

const elements = (frame: Frame): Promise<number> => frame.evaluate(() => document.getElementsByTagName('*').length);

export async function benchSession(ui: Ui, benchLog: string): Promise<Figures> {
  const page = ui.workbench.page;
  process.stdout.write(`session: a ${REPLY_CHARS.toLocaleString('en-US')}-character reply in 40-character chunks, ours vs a plain accumulator and webview, ${PAIRS} pairs…\n`);
  const frame = await newFixtureSession(ui);
  const idle: number[] = [];

  const oursOnce = async (chars: number): Promise<Frames> => {
    const turns = hostTurns(benchLog, 'ours').length;
    await waitUntil('the session to take a prompt', () => frame.locator('#send').isEnabled(), 60_000);
    await frame.locator('#prompt').fill(`stream ${chars} 40`);
    // The floor: the same page's frames with nothing to draw, just before.
    idle.push(...((await frame.evaluate(idleFrames(IDLE_MS))) as number[]));
    await frame.evaluate(RECORD_FRAMES);
    await frame.locator('#prompt').press('Enter');
    // Waited for in the bench's log, as the plain side is: nothing queries the page while it draws.
    await waitUntil('the host figures', () => hostTurns(benchLog, 'ours').length > turns, 5 * 60_000);
    // The page draws at its pace: its frames count until it has drawn the whole reply.
    await settled(frame);
    return frame.evaluate('window.__framesStop()') as Promise<Frames>;
  };
  const plainOnce = async (chars: number): Promise<Frames> => {
    const turns = hostTurns(benchLog, 'plain').length;
    const done = events(benchLog).filter((e) => e.event === 'plainStreamDone').length;
    await ui.workbench.runCommand('Elicitation Host: Benchmark: Plain Stream');
    const plain = await frameWith(page, '#plain-stream');
    await plain.evaluate(RECORD_FRAMES);
    await plain.evaluate(`window.__start(${chars})`);
    await waitUntil('the plain stream', () => events(benchLog).filter((e) => e.event === 'plainStreamDone').length > done, 5 * 60_000);
    await waitUntil('the host figures', () => hostTurns(benchLog, 'plain').length > turns, 30_000);
    await settled(plain);
    const frames = (await plain.evaluate('window.__framesStop()')) as Frames;
    await plain.evaluate('window.__finish()');
    await waitUntil('the plain page closed', () => plain.isDetached(), 30_000);
    return frames;
  };
  // Warm both ways up (compilation, the page's first layout), then the pairs.
  await oursOnce(100_000);
  await plainOnce(100_000);
  const ours: Array<{ totalMs: number; firstMs: number; lastMs: number }> = [];
  const plain: Array<{ totalMs: number }> = [];
  const oursFrames: number[] = [];
  const plainFrames: number[] = [];
  idle.length = 0;
  for (let i = 0; i < PAIRS; i++) {
    await inTurn(
      i,
      async () => {
        plainFrames.push(...(await plainOnce(REPLY_CHARS)).intervals);
        plain.push(costs(hostTurns(benchLog, 'plain').at(-1)!));
      },
      async () => {
        oursFrames.push(...(await oursOnce(REPLY_CHARS)).intervals);
        const turn = hostTurns(benchLog, 'ours').at(-1)!;
        if (turn.chunks !== REPLY_CHARS / 40) throw new Error(`ours took ${turn.chunks} chunks, not ${REPLY_CHARS / 40}`);
        ours.push(costs(turn));
      },
    );
  }
  const totalRatios = ours.map((o, i) => o.totalMs / plain[i].totalMs);
  const lastToFirst = ours.map((o) => o.lastMs / o.firstMs);
  const elementsAfterReplies = await elements(frame);

  process.stdout.write(`session: memory over ${TOOL_CALLS.toLocaleString('en-US')} tool calls and a ${LONG_REPLY.toLocaleString('en-US')}-character reply in a new session, and after Close Session…\n`);
  const hostBefore = await hostHeap(ui, benchLog);
  const fresh = await newFixtureSession(ui);
  const hostStart = await hostHeap(ui, benchLog);
  const pageStart = await pageHeap(page, fresh);
  await prompt(fresh, `tools ${TOOL_CALLS} ${TOOL_OUTPUT}`, 10 * 60_000);
  await settled(fresh);
  const elementsAfterTools = await elements(fresh);
  await prompt(fresh, `stream ${LONG_REPLY} 40`, 20 * 60_000);
  await settled(fresh);
  const leftOut = await fresh.locator('.entry.agent:last-child .left-out span').textContent();
  const hostEnd = await hostHeap(ui, benchLog);
  const pageEnd = await pageHeap(page, fresh);
  const elementsAtEnd = await elements(fresh);
  await fresh.getByRole('button', { name: 'Close Session' }).click();
  await waitUntil('the session panel closed', () => fresh.isDetached(), 30_000);
  const hostClosed = await hostHeap(ui, benchLog);

  const oursTotal = median(ours.map((o) => o.totalMs));
  const plainTotal = median(plain.map((p) => p.totalMs));
  const totalRatio = round(median(totalRatios), 2);
  const growthRatio = round(median(lastToFirst), 2);
  // A display frame's period, and each interval in whole periods (see the header).
  const period = median(idle);
  const inFrames = (intervals: readonly number[]): number => round(Math.max(1, Math.round(percentile(intervals, 95) / period)) * period, 1);
  const oursP95 = inFrames(oursFrames);
  const plainP95 = inFrames(plainFrames);
  const idleP95 = inFrames(idle);
  const late = (frames: readonly number[]): number => round((100 * frames.filter((f) => f > 1.5 * period).length) / Math.max(1, frames.length), 1);
  const hostGrowth = mb(hostEnd - hostStart);
  const pageGrowth = mb(pageEnd.bytes - pageStart.bytes);
  const results = {
    session: {
      pairs: PAIRS,
      replyChars: REPLY_CHARS,
      hostTotalMs: { ours: ours.map((o) => round(o.totalMs, 1)), plain: plain.map((p) => round(p.totalMs, 1)) },
      hostFirstAndLastMs: ours.map((o) => [round(o.firstMs, 1), round(o.lastMs, 1)]),
      totalRatio,
      lastToFirst: growthRatio,
      frames: {
        periodMs: period,
        oursP95Ms: oursP95,
        plainP95Ms: plainP95,
        idleP95Ms: idleP95,
        rawP95Ms: { ours: percentile(oursFrames, 95), plain: percentile(plainFrames, 95), idle: percentile(idle, 95) },
        oursLatePercent: late(oursFrames),
        plainLatePercent: late(plainFrames),
        idleLatePercent: late(idle),
        ours: oursFrames.length,
        plain: plainFrames.length,
        idle: idle.length,
        oursIntervalsMs: oursFrames,
        plainIntervalsMs: plainFrames,
        idleIntervalsMs: idle,
      },
      elements: { afterReplies: elementsAfterReplies, afterTools: elementsAfterTools, atEnd: elementsAtEnd },
      heapMb: { hostBeforeSession: mb(hostBefore), hostStart: mb(hostStart), hostEnd: mb(hostEnd), hostAfterClose: mb(hostClosed), pageStart: mb(pageStart.bytes), pageEnd: mb(pageEnd.bytes), pageOf: pageStart.of },
      leftOut,
    },
  };
  const perMark = hostTurns(benchLog, 'ours').at(-1)!.perMark.toLocaleString('en-US');
  const rows: Row[] = [
    {
      measure: `session, extension host's busy time per chunk: the last ${perMark} chunks of a ${REPLY_CHARS.toLocaleString('en-US')}-character reply against its first ${perMark} (median of ${PAIRS})`,
      ours: `${round(median(ours.map((o) => o.lastMs)), 1)} ms`,
      baseline: `${round(median(ours.map((o) => o.firstMs)), 1)} ms (its first ${perMark})`,
      ratio: growthRatio,
      interval: medianInterval(lastToFirst),
      target: '<= 1.2',
    },
    {
      measure: `session, extension host's busy time for the whole reply (25,000 chunks; ${PAIRS} pairs, the two in turn)`,
      ours: `${round(oursTotal, 1)} ms`,
      baseline: `${round(plainTotal, 1)} ms (a plain accumulator posting each chunk to a plain webview)`,
      ratio: totalRatio,
      interval: medianInterval(totalRatios),
      target: '<= 1.5',
    },
    {
      measure: `session, the page's frames while the reply streams (95th percentile of ${oursFrames.length} frames, in display frames of ${period} ms, raw ${percentile(oursFrames, 95)} ms; late, a frame or more missed: ${late(oursFrames)}% against ${late(plainFrames)}%, and ${late(idle)}% with nothing to draw)`,
      ours: `${oursP95} ms`,
      baseline: `${plainP95} ms (the plain webview appending each chunk as text); ${idleP95} ms (the same page with nothing to draw, raw ${percentile(idle, 95)} ms)`,
      ratio: round(oursP95 / plainP95, 2),
      target: '<= 16.7 ms',
    },
    {
      measure: `session, the page's elements: after ${PAIRS + 1} long replies; after ${TOOL_CALLS.toLocaleString('en-US')} tool calls; after a ${LONG_REPLY.toLocaleString('en-US')}-character reply more`,
      ours: `${elementsAfterReplies}; ${elementsAfterTools}; ${elementsAtEnd}`,
      baseline: '-',
      ratio: '-',
      target: `bounded: ${ELEMENTS_SHOWN.toLocaleString('en-US')} and the newest entry`,
    },
    {
      measure: `session, heap growth over ${TOOL_CALLS.toLocaleString('en-US')} tool calls (${TOOL_OUTPUT.toLocaleString('en-US')} characters of output each) and a ${LONG_REPLY.toLocaleString('en-US')}-character reply (after GC): extension host; page (${pageStart.of})`,
      ours: `${hostGrowth} MB; ${pageGrowth} MB`,
      baseline: `${mb(hostStart)} MB; ${mb(pageStart.bytes)} MB (the new session's start)`,
      ratio: '-',
      target: '< 50 MB each',
    },
    {
      measure: 'session, the extension host\'s heap after Close Session of that session (after GC)',
      ours: `${mb(hostClosed)} MB`,
      baseline: `${mb(hostBefore)} MB (before the session)`,
      ratio: round(hostClosed / hostBefore, 2),
      target: 'what it held let go of',
    },
  ];
  return { results, rows };
}
