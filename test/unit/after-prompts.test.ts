import { strict as assert } from 'node:assert';
import { holdWhileDrawing, refreshAfterPrompts } from '../../src/ui/after-prompts';

/** A refresh that counts its runs and lets a test wait for the next one. */
function counted(settleMs: number) {
  let runs = 0;
  let next: (() => void) | undefined;
  const refresh = refreshAfterPrompts(() => {
    runs++;
    next?.();
  }, settleMs);
  return {
    refresh,
    runs: () => runs,
    ran: () => new Promise<void>((resolve) => (next = resolve)),
  };
}

describe('secondary views refresh after the prompt', () => {
  it('a burst of changes is one refresh, run after the current turn', async () => {
    const c = counted(5);
    const first = c.ran();
    c.refresh();
    c.refresh();
    c.refresh();
    assert.equal(c.runs(), 0, 'not in the same turn as the change');
    await first;
    // Timers of equal delay run in order: a second refresh of the burst would run before this later one.
    const later = c.ran();
    c.refresh();
    await later;
    assert.equal(c.runs(), 2, 'the burst was one refresh, the later change another');
  });

  it('a cancelled refresh does not run', async () => {
    const c = counted(5);
    c.refresh();
    c.refresh.cancel();
    const later = c.ran();
    c.refresh();
    await later;
    assert.equal(c.runs(), 1, 'only the refresh asked for after the cancel ran');
  });
});

describe('secondary views wait while a new form page is drawn', () => {
  it('a refresh asked while the page is drawn runs once the page says it is on screen, not before', async () => {
    const order: string[] = [];
    const c = counted(5);
    const release = holdWhileDrawing(10_000);
    const ran = c.ran().then(() => order.push('refreshed'));
    c.refresh();
    c.refresh();
    setTimeout(() => {
      order.push('drawn');
      release();
      release(); // a second release changes nothing
    }, 30);
    await ran;
    assert.deepEqual(order, ['drawn', 'refreshed']);
    assert.equal(c.runs(), 1, 'the held burst is one refresh');
  });

  it('two pages drawn at once hold the refresh until the last is on screen', async () => {
    const order: string[] = [];
    const c = counted(5);
    const first = holdWhileDrawing(10_000);
    const second = holdWhileDrawing(10_000);
    const ran = c.ran().then(() => order.push('refreshed'));
    c.refresh();
    setTimeout(() => {
      order.push('first drawn');
      first();
      setTimeout(() => {
        order.push('second drawn');
        second();
      }, 20);
    }, 20);
    await ran;
    assert.deepEqual(order, ['first drawn', 'second drawn', 'refreshed']);
  });

  it('a page that never says it is on screen holds the refresh no longer than the cap', async () => {
    const c = counted(5);
    const started = Date.now();
    holdWhileDrawing(60);
    const ran = c.ran();
    c.refresh();
    await ran;
    const waited = Date.now() - started;
    assert.ok(waited >= 55 && waited < 1000, `refreshed after ${waited} ms`);
  });
});
