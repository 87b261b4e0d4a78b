/** Small statistics for benchmark samples. */
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
export function againstBaseline(ours: readonly number[], bare: readonly number[]) {
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
