/** One line of the bench's table: ours, the baseline from the same run, their ratio (or a word, for a check without one), the goal. */
export interface Row {
  readonly measure: string;
  readonly ours: string;
  readonly baseline: string;
  readonly ratio: number | string;
  readonly target: string;
}
