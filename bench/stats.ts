/** Small statistics for benchmark samples. */
import type { RatioInterval } from './row';

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Ours against the baseline measured in the same run: medians, their ratio, and both p90s. */
export interface AgainstBaseline {
  readonly oursMedianMs: number;
  readonly bareMedianMs: number;
  readonly ratio: number;
  readonly oursP90Ms: number;
  readonly bareP90Ms: number;
}

/** Each block's ratio of medians, at its least, middle and most: their spread shows how much the machine moved meanwhile. */
export interface BlockRatios {
  readonly min: number;
  readonly median: number;
  readonly max: number;
}

export function againstBaseline(ours: readonly number[], bare: readonly number[]): AgainstBaseline {
  const oursMedian = median(ours);
  const bareMedian = median(bare);
  return {
    oursMedianMs: round(oursMedian),
    bareMedianMs: round(bareMedian),
    ratio: round(oursMedian / bareMedian),
    oursP90Ms: round(percentile(ours, 90)),
    bareP90Ms: round(percentile(bare, 90)),
  };
}

export function blockRatios(ratios: readonly number[]): BlockRatios {
  return { min: round(Math.min(...ratios)), median: round(median(ratios)), max: round(Math.max(...ratios)) };
}

/**
 * One pair's two sides, the baseline first in even pairs and ours first in odd ones: whatever
 * the side that goes first leaves behind (a panel still tearing down, a warmed cache) falls on
 * each side equally often, so the ratio's median does not carry an order's cost.
 */
export async function inTurn<B, O>(pair: number, baseline: () => Promise<B>, ours: () => Promise<O>): Promise<[B, O]> {
  if (pair % 2 === 0) {
    const b = await baseline();
    return [b, await ours()];
  }
  const o = await ours();
  return [await baseline(), o];
}

/**
 * A distribution-free 95% confidence interval for the median of `samples` (pairs' ratios):
 * the order statistics X(r) and X(n-r+1), r the largest with P(Binomial(n, 1/2) < r) <= 2.5%
 * (for 20 pairs X(6) and X(15), 95.9%). Exact for any distribution, nothing random; too few
 * samples (under 6) have none. Says whether a ratio's distance from 1 is more than the run's spread.
 */
export function medianInterval(samples: readonly number[]): RatioInterval | undefined {
  const n = samples.length;
  const sorted = [...samples].sort((a, b) => a - b);
  // P(B <= k) for B ~ Binomial(n, 1/2), accumulated while it stays within the tail.
  let choose = 1;
  let tail = 0;
  let r = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0) choose = (choose * (n - k + 1)) / k;
    const next = tail + choose / 2 ** n;
    if (next > 0.025) break;
    tail = next;
    r = k + 1;
  }
  if (r === 0) return undefined;
  return { low: round(sorted[r - 1], 2), high: round(sorted[n - r], 2), coverage: round(1 - 2 * tail, 3) };
}
