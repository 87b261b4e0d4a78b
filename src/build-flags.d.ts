/**
 * Constants the bundler puts in (scripts/build.mjs, esbuild `define`). They exist in the
 * bundles only: code run from source (the tests, through tsx) has none, so each is read where
 * only a bundle runs (activation, the runner's entry) and handed on from there.
 */

/**
 * True only in the build `npm run bench` makes for itself; the shipped bundle is built with
 * false, and the code it guards is left out of it.
 */
declare const BENCHMARK: boolean;

/** package.json's version (the runner reports it: src/cli/main.ts). */
declare const PACKAGE_VERSION: string;
