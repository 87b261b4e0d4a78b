import { strict as assert } from 'node:assert';
import { reconnectDelay } from '../../src/mcp/connection/reconnect';

describe('reconnecting to an HTTP server', () => {
  it('waits longer after each failed attempt, then keeps the last wait', () => {
    const delays = [1000, 2000, 5000, 10000, 30000];
    assert.deepEqual([0, 1, 2, 3, 4, 5, 50].map((attempt) => reconnectDelay(delays, attempt)), [1000, 2000, 5000, 10000, 30000, 30000, 30000]);
  });

  it('does not reconnect at all when no delays are given (the command-line runner)', () => {
    assert.equal(reconnectDelay([], 0), undefined);
    assert.equal(reconnectDelay([], 3), undefined);
  });
});
