/**
 * The cost of the middle: elicitations of the book_restaurant schema answered through our
 * connection, broker and validation (a scripted Prompter answers), against a bare SDK
 * Client whose handler returns the same answer, over the same transport (stdio to the
 * same fixture server) in the same run. The fixture times every round trip itself, so
 * both sides are measured by the same clock at the same point.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, requireFixtures } from '../test/support/servers';
import { againstBaseline, type AgainstBaseline, blockRatios, type BlockRatios, median } from './stats';

type Sides = typeof import('./middle-sides');

/** The two sides as `npm run build` bundled them (bench/middle-sides.ts says why). */
function sides(): Sides {
  const bundle = join(REPO, 'out/bench/middle-sides.js');
  if (!existsSync(bundle)) throw new Error('out/bench/middle-sides.js is not built: run "npm run build" first (npm run bench does it).');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(bundle) as Sides;
}

export interface MiddleResult extends AgainstBaseline {
  readonly elicitations: number;
  readonly blockRatios: BlockRatios;
}

/** Alternates the two sides in 5 blocks (so neither gets a warmer machine) and pools the samples. */
export async function benchMiddle(total = 1000, rounds = 5): Promise<MiddleResult> {
  requireFixtures();
  const { ours, bare } = sides();
  const per = Math.ceil(total / rounds);
  // Warm both paths (JIT, module loading) before measuring.
  await bare(50);
  await ours(50);
  const oursSamples: number[] = [];
  const bareSamples: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const b = await bare(per);
    const o = await ours(per);
    bareSamples.push(...b);
    oursSamples.push(...o);
    ratios.push(median(o) / median(b));
  }
  return {
    elicitations: oursSamples.length,
    ...againstBaseline(oursSamples, bareSamples),
    blockRatios: blockRatios(ratios),
  };
}
