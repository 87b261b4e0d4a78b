/**
 * The number of waiting questions on the activity bar's Agent Inputs entry (the container
 * shows its views' badges), for a person in another view; none when nothing waits.
 */
import type * as vscode from 'vscode';
import { type InputStore, openRequests } from '../../elicitation/store';
import { refreshAfterPrompts } from '../after-prompts';

export function showPendingBadge(store: InputStore, view: vscode.TreeView<unknown>): vscode.Disposable {
  const update = (): void => {
    const count = openRequests(store.state).length;
    view.badge = count === 0 ? undefined : { value: count, tooltip: `${count} question${count === 1 ? '' : 's'} waiting` };
  };
  const refresh = refreshAfterPrompts(update);
  const unsubscribe = store.subscribe(refresh);
  update();
  return {
    dispose: () => {
      unsubscribe();
      refresh.cancel();
    },
  };
}
