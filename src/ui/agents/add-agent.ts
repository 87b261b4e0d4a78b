/**
 * Add Agent…: the agents that speak ACP, each with the command its documentation gives
 * (acp-agent-catalog.ts), or any other command; written to the person's user settings
 * (`elicitationHost.agents`), where a repository cannot change it. Nothing starts until the
 * person opens a session.
 */
import * as vscode from 'vscode';
import { showDialog, showInfo } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { AGENTS_SETTING } from './agents-host';
import { splitCommandLine } from './command-line';
import { ACP_AGENT_CATALOG } from './acp-agent-catalog';
import { errorMessage } from '../../base/error-message';

const NAME = /^[\w][\w .-]{0,63}$/;

export async function addAgent(quickInput: OwnQuickInput, existing: (name: string) => boolean): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { readonly known?: (typeof ACP_AGENT_CATALOG)[number] };
  const items: Item[] = [
    ...ACP_AGENT_CATALOG.map((known) => ({ label: known.label, description: [known.command, ...known.args].join(' '), detail: `Needs: ${known.needs}`, known })),
    { label: 'Another agent…', description: 'any command that speaks ACP over stdio' },
  ];
  const picked = await quickInput.pick(items, { title: 'Add Agent', placeHolder: 'Which agent? It runs when you start a session with it.' });
  if (!picked) return undefined;
  let name: string;
  let command: string;
  let args: string[];
  if (picked.known) {
    ({ name, command } = picked.known);
    args = [...picked.known.args];
  } else {
    const line = await quickInput.input({
      title: 'Add Agent: its command',
      prompt: 'The command that starts the agent in ACP mode (no shell: quotes group words, nothing is expanded)',
      placeHolder: 'my-agent --acp',
      validateInput: (value) => {
        try {
          return splitCommandLine(value).length === 0 ? 'Type the command.' : undefined;
        } catch (error) {
          return errorMessage(error);
        }
      },
    });
    if (!line) return undefined;
    [command, ...args] = splitCommandLine(line);
    const given = await quickInput.input({
      title: 'Add Agent: its name',
      prompt: 'Shown as who asks in every question and permission of this agent',
      value: command.split('/').pop()?.replace(/[^\w .-]/g, '') ?? '',
      validateInput: (value) => (NAME.test(value) ? undefined : 'Letters, digits, spaces, ".", "-" or "_", at most 64.'),
    });
    if (!given) return undefined;
    name = given;
  }
  if (existing(name)) {
    const replace = { title: 'Replace' };
    const answer = await showDialog({ kind: 'warning', heading: `An agent named "${name}" is configured already.`, detail: `Replace its command with: ${[command, ...args].join(' ')}`, buttons: [replace] });
    if (answer !== replace) return undefined;
  }
  const config = vscode.workspace.getConfiguration();
  const current = (config.inspect<Record<string, unknown>>(AGENTS_SETTING)?.globalValue ?? {}) as Record<string, unknown>;
  await config.update(AGENTS_SETTING, { ...current, [name]: { command, args } }, vscode.ConfigurationTarget.Global);
  void showInfo(`Added the agent "${name}" to your user settings. Start a session with it from the Agents view.`);
  return name;
}
