/**
 * How long the workbench is left idle before each side of the confirm pair is timed: our
 * confirm is sent by the fixture this long after Run Tool's pickers closed (`ask_later`),
 * and the plain quick pick's command waits as long after the palette closed, so neither is
 * timed while a quick input is still closing (see bench/README.md).
 */
export const QUIET_BEFORE_MS = 400;

/**
 * The same for the first forms: the fixture's `ask_form_later` sends each form this long
 * after the call (test/fixtures/servers/timing-tools.ts reads it from here), so our first form is made 500 ms
 * after Run Tool's pickers closed, and the plain webview it is paired with is made as long
 * after the palette closed (made at once, it was timed while the palette was still closing,
 * which made it slower and the ratio flattering: 0.75 then).
 */
export const FORM_LATER_MS = 500;
