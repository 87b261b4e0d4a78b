/** One line of the bench's table: ours, the baseline from the same run, their ratio (or a word, for a check without one), the goal. */
export interface Row {
  readonly measure: string;
  readonly ours: string;
  readonly baseline: string;
  readonly ratio: number | string;
  readonly target: string;
  /** For a median of pairs' ratios: its 95% confidence interval (stats.ts `medianInterval`), printed beside the ratio. */
  readonly interval?: RatioInterval;
}

export interface RatioInterval {
  readonly low: number;
  readonly high: number;
  readonly coverage: number;
}

/** What a bench gives the run: its part of the results file (bench/results/latest.json) and its rows of the table. */
export interface Figures {
  readonly results: Record<string, unknown>;
  readonly rows: Row[];
}
