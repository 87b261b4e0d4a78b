/**
 * Set by the bundler (scripts/build.mjs, esbuild `define`): true only in the build
 * `npm run bench` makes for itself; the shipped bundle is built with false, and the code
 * it guards is left out of it.
 */
declare const BENCHMARK: boolean;
