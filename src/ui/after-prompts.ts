/**
 * The secondary signs of a question (the status bar count, the Pending Inputs view, the badge)
 * refresh a moment after the store changes, not in the same turn: the prompt the person has to
 * answer reaches the workbench first and is drawn without them (the confirm bench measured them
 * in its time), and a burst of changes (drafts as they are typed) is one refresh. While a new
 * form panel is being drawn (about 200 ms, in the workbench's own thread) they wait until its
 * page says it is on screen: drawn beside it they made the form later (`npm run bench -- spans`).
 */
const SETTLE_MS = 50;
/** A page that never says it is on screen holds the signs no longer than this. */
export const DRAWING_HOLD_MAX_MS = 1500;

export interface Refresh {
  /** Asks for a refresh; several before it runs are one. */
  (): void;
  /** Forgets a refresh asked for and not yet run. */
  cancel(): void;
}

let holds = 0;
const held = new Set<() => void>();

/**
 * Holds every refresh until the returned release is called (once is enough; later calls do
 * nothing) or `maxMs` has passed. Several holds release when the last one does.
 */
export function holdWhileDrawing(maxMs = DRAWING_HOLD_MAX_MS): () => void {
  holds++;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    clearTimeout(cap);
    if (--holds > 0) return;
    const due = [...held];
    held.clear();
    for (const run of due) run();
  };
  const cap = setTimeout(release, maxMs);
  return release;
}

export function refreshAfterPrompts(refresh: () => void, settleMs = SETTLE_MS): Refresh {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    held.delete(run);
    refresh();
  };
  const request = (): void => {
    if (held.has(run)) return;
    timer ??= setTimeout(() => {
      timer = undefined;
      if (holds > 0) held.add(run);
      else refresh();
    }, settleMs);
  };
  return Object.assign(request, {
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      held.delete(run);
    },
  });
}
