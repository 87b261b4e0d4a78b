/** Loads the agent host client's bundle once, on first use (see src/ahp/bundle.ts). */
export type AhpModule = typeof import('../../ahp/bundle');

let loaded: AhpModule | undefined;

export function loadAhp(): AhpModule {
  // A plain require: the build maps './ahp-bundle' to dist/ahp.js; tests run the sources.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./ahp-bundle') as AhpModule;
  return loaded;
}
