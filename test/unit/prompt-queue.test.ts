import { strict as assert } from 'node:assert';
import { PromptQueue, type ShowResult } from '../../src/ui/quick-input/prompt-queue';

/** A surface that shows one item at a time; the test settles what is on screen. */
class FakeSurface {
  readonly shown: string[] = [];
  private settle: ((r: ShowResult<string>) => void) | undefined;
  visible: string | undefined;

  show(id: string, signal: AbortSignal): Promise<ShowResult<string>> {
    this.shown.push(id);
    this.visible = id;
    return new Promise((resolve) => {
      const finish = (r: ShowResult<string>): void => {
        this.visible = undefined;
        this.settle = undefined;
        resolve(r);
      };
      this.settle = finish;
      signal.addEventListener('abort', () => finish({ kind: 'aborted' }), { once: true });
    });
  }

  answer(value: string): void {
    this.settle?.({ kind: 'done', value });
  }

  stepAside = (): boolean => {
    if (!this.settle) return false;
    this.settle({ kind: 'deferred' });
    return true;
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

function setup(): { surface: FakeSurface; queue: PromptQueue<string>; ask: (id: string, signal?: AbortSignal) => { result: Promise<string>; aborted: string[] } } {
  const surface = new FakeSurface();
  const queue = new PromptQueue<string>(surface.stepAside);
  const ask = (id: string, signal = new AbortController().signal): { result: Promise<string>; aborted: string[] } => {
    const aborted: string[] = [];
    const result = new Promise<string>((resolve) =>
      queue.enqueue({ id, signal, resolve, show: () => surface.show(id, signal), onAborted: () => aborted.push(id) }),
    );
    return { result, aborted };
  };
  return { surface, queue, ask };
}

describe('prompt queue', () => {
  it('shows one at a time, first come first served', async () => {
    const { surface, queue, ask } = setup();
    const a = ask('a');
    const b = ask('b');
    await tick();
    assert.equal(surface.visible, 'a');
    assert.deepEqual(queue.waitingIds, ['b']);
    surface.answer('A');
    assert.equal(await a.result, 'A');
    await tick();
    assert.equal(surface.visible, 'b');
    surface.answer('B');
    assert.equal(await b.result, 'B');
    assert.deepEqual(surface.shown, ['a', 'b']);
  });

  it('a question that ends while it waits leaves the queue silently', async () => {
    const { surface, ask } = setup();
    ask('a');
    const waiting = new AbortController();
    const b = ask('b', waiting.signal);
    ask('c');
    await tick();
    waiting.abort();
    surface.answer('A');
    await tick();
    assert.equal(surface.visible, 'c');
    assert.deepEqual(surface.shown, ['a', 'c']);
    assert.deepEqual(b.aborted, []);
  });

  it('the question on screen closes when it ends, and says so', async () => {
    const { surface, ask } = setup();
    const controller = new AbortController();
    const a = ask('a', controller.signal);
    ask('b');
    await tick();
    controller.abort();
    await tick();
    assert.deepEqual(a.aborted, ['a']);
    assert.equal(surface.visible, 'b');
  });

  it('brings a waiting question forward; the one on screen waits right behind it', async () => {
    const { surface, queue, ask } = setup();
    ask('a');
    ask('b');
    const c = ask('c');
    await tick();
    assert.equal(queue.bringForward('c'), true);
    await tick();
    assert.equal(surface.visible, 'c');
    assert.deepEqual(queue.waitingIds, ['a', 'b']);
    surface.answer('C');
    assert.equal(await c.result, 'C');
    await tick();
    assert.equal(surface.visible, 'a');
    assert.equal(queue.bringForward('nope'), false);
    assert.equal(queue.bringForward('a'), true);
  });

  it('pause frees the surface until resumed; nothing is lost', async () => {
    const { surface, queue, ask } = setup();
    const a = ask('a');
    ask('b');
    await tick();
    const resume = queue.pause();
    await tick();
    assert.equal(surface.visible, undefined);
    assert.deepEqual(queue.waitingIds, ['a', 'b']);
    queue.bringForward('b');
    await tick();
    assert.equal(surface.visible, undefined, 'nothing shows while paused');
    resume();
    await tick();
    assert.equal(surface.visible, 'b');
    surface.answer('B');
    await tick();
    assert.equal(surface.visible, 'a');
    surface.answer('A');
    assert.equal(await a.result, 'A');
  });
});
