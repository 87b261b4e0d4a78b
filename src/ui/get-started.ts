/**
 * Elicitation Host: Get Started, which opens our walkthrough. VS Code creates its walkthroughs
 * service on first use and registers the extensions' walkthroughs a moment after. Asked for one
 * not registered yet, VS Code 1.103 opens the first walkthrough it has (its own "Setup VS Code
 * Web"), and asked again over that tab it keeps it; 1.139 waits for ours. The extension cannot
 * see which walkthrough a tab shows (its label reaches us as "Welcome" either way), so before
 * 1.139 the first time in a window the tab just opened is closed and ours asked for again once
 * it has had time to register; after that VS Code has it.
 */
import * as vscode from 'vscode';
import { vsCodeAtLeast } from './vscode-version';

/** The first VS Code seen to wait for a walkthrough still registering (1.103 does not): 1.139. */
const WAITS_FROM_MINOR = 139;
/** The registration is a turn or two of VS Code's away: time enough for it. */
const REGISTERED_AFTER_MS = 300;

let askedInThisWindow = false;

export async function openGetStarted(walkthroughId: string): Promise<void> {
  const open = (): Thenable<unknown> => vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughId, false);
  const first = !askedInThisWindow;
  askedInThisWindow = true;
  await open();
  if (!first || vsCodeAtLeast(vscode.version, 1, WAITS_FROM_MINOR)) return;
  await new Promise((resolve) => setTimeout(resolve, REGISTERED_AFTER_MS));
  const opened = vscode.window.tabGroups.activeTabGroup.activeTab;
  // Only the Welcome editor this command opened (a tab of no kind the API knows); anything else the person moved to stays.
  if (!opened || KNOWN_INPUTS.some((kind) => opened.input instanceof kind)) return;
  await vscode.window.tabGroups.close(opened);
  await open();
}

const KNOWN_INPUTS = [
  vscode.TabInputText,
  vscode.TabInputTextDiff,
  vscode.TabInputCustom,
  vscode.TabInputWebview,
  vscode.TabInputNotebook,
  vscode.TabInputNotebookDiff,
  vscode.TabInputTerminal,
];

