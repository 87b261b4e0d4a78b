/**
 * JavaScript's own engine as a test oracle that cannot hang the test: the native RegExp
 * runs in a worker thread, and the caller waits for it with a time limit. A backtracking
 * blow-up on a long text is then "the oracle could not say", never a stuck test run.
 */
import { Worker } from 'node:worker_threads';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const state = new Int32Array(workerData);
parentPort.on('message', ({ pattern, text }) => {
  let verdict;
  try { verdict = new RegExp(pattern, 'u').test(text) ? 1 : 2; } catch { verdict = 3; }
  Atomics.store(state, 0, verdict);
  Atomics.notify(state, 0);
});
`;

export type NativeVerdict = 'match' | 'no-match' | 'invalid' | 'timed-out';

export class NativeRegExp {
  private readonly shared = new SharedArrayBuffer(4);
  private readonly state = new Int32Array(this.shared);
  private worker = this.start();

  private start(): Worker {
    const worker = new Worker(WORKER, { eval: true, workerData: this.shared });
    worker.unref();
    return worker;
  }

  /** The native verdict, waiting at most `timeoutMs` (the worker is replaced after a timeout). */
  test(pattern: string, text: string, timeoutMs = 2000): NativeVerdict {
    Atomics.store(this.state, 0, 0);
    this.worker.postMessage({ pattern, text });
    const waited = Atomics.wait(this.state, 0, 0, timeoutMs);
    if (waited === 'timed-out') {
      void this.worker.terminate();
      this.worker = this.start();
      return 'timed-out';
    }
    return (['match', 'no-match', 'invalid'] as const)[Atomics.load(this.state, 0) - 1];
  }

  close(): Promise<number> {
    return this.worker.terminate();
  }
}
