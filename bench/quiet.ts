/**
 * How long the workbench is left idle before a timed step, so that none is timed while a quick
 * input is still closing: the first call's window waits this long before the tool API's call
 * (`first-call.ts`). The confirm pairs wait longer (CONFIRM_AFTER_MS, below).
 */
export const QUIET_BEFORE_MS = 400;

/**
 * How long after its call a confirm is asked in the confirm pairs (`visible`, `agents`): later
 * than QUIET_BEFORE_MS because Run Tool's progress enters the status bar 400 ms after its call
 * (src/ui/run-tool/call-progress.ts opens it after 100 ms; VS Code waits 150 ms before a window
 * progress's silent notification and 150 ms more before its status bar entry). A confirm sent at
 * 400 ms was drawn in the same frame as that entry, 4-5 ms later than without it (traced: the
 * entry's timer ran and a frame was drawn before the quick pick's message was read), a coincidence
 * of two timers that a question arriving at any other moment does not meet. At 600 ms the entry is
 * up and the workbench idle again; the plain quick pick is shown with a progress of its own that
 * has been up as long or longer (bench/README.md).
 */
export const CONFIRM_AFTER_MS = 600;

/**
 * The same for the first forms: the fixture's `ask_form_later` sends each form this long
 * after the call (test/fixtures/servers/timing-tools.ts reads it from here), so our first form is made 500 ms
 * after Run Tool's pickers closed, and the plain webview it is paired with is made as long
 * after the palette closed (made at once, it was timed while the palette was still closing,
 * which made it slower and the ratio flattering: 0.75 then).
 */
export const FORM_LATER_MS = 500;
