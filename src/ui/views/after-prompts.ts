/**
 * The secondary signs of a question (the status bar count, the Pending Inputs view) refresh a
 * moment after the store changes, not in the same turn: the prompt the person has to answer
 * reaches the workbench first and is drawn without them (the confirm bench measured them in
 * its time), and a burst of changes (drafts as they are typed) is one refresh.
 */
const SETTLE_MS = 50;

export interface Refresh {
  /** Asks for a refresh; several before it runs are one. */
  (): void;
  /** Forgets a refresh asked for and not yet run. */
  cancel(): void;
}

export function refreshAfterPrompts(refresh: () => void, settleMs = SETTLE_MS): Refresh {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const request = (): void => {
    timer ??= setTimeout(() => {
      timer = undefined;
      refresh();
    }, settleMs);
  };
  return Object.assign(request, {
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  });
}
