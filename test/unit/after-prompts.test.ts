import { strict as assert } from 'node:assert';
import { refreshAfterPrompts } from '../../src/ui/views/after-prompts';

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
