/** The bench's interval for a median of pairs' ratios (bench/stats.ts): the order statistics a binomial tail picks. */
import { strict as assert } from 'node:assert';
import { medianInterval } from '../../bench/stats';

describe('bench: the interval of a median of ratios', () => {
  it('takes the 6th and 15th of 20 sorted samples, 95.9% of the time holding the median', () => {
    const shuffled = [1.2, 0.9, 1.05, 0.95, 1.1, 1.0, 0.85, 1.3, 0.99, 1.01, 1.02, 0.97, 1.15, 0.8, 1.08, 0.93, 1.04, 1.25, 0.98, 1.06];
    const sorted = [...shuffled].sort((a, b) => a - b);
    assert.deepEqual(medianInterval(shuffled), { low: sorted[5], high: sorted[14], coverage: 0.959 });
  });

  it('widens to the extremes for 7 pairs, and gives none for too few to say', () => {
    assert.deepEqual(medianInterval([3, 1, 2, 7, 5, 4, 6]), { low: 1, high: 7, coverage: 0.984 });
    assert.equal(medianInterval([1, 2, 3, 4, 5]), undefined);
  });
});
