/**
 * How long the workbench is left idle before each side of the confirm pair is timed: our
 * confirm is sent by the fixture this long after Run Tool's pickers closed (`ask_later`),
 * and the plain quick pick's command waits as long after the palette closed, so neither is
 * timed while a quick input is still closing (see bench/README.md).
 */
export const QUIET_BEFORE_MS = 400;
