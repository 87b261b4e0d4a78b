/**
 * The agent hosts' commands: Connect to an Agent Host…, Disconnect, Reconnect and Forget (from
 * a host's row in the Agents view, or the palette, which asks which host), and a waiting
 * session's row opening its question.
 */
import * as vscode from 'vscode';
import { reportFailure as report, showInfo } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { oneLine } from '../text';
import type { AgentHostConnections } from './agent-host-connections';
import { connectAgentHost } from './connect-agent-host';

export const CONNECT_AGENT_HOST_COMMAND = 'elicitationHost.connectAgentHost';

/** A host row's node, as the Agents view hands it to a command (only the name is read). */
type HostArgument = { readonly kind?: string; readonly host?: unknown } | undefined;

async function whichHost(quickInput: OwnQuickInput, hosts: AgentHostConnections, node: HostArgument, verb: string): Promise<string | undefined> {
  if (node?.kind === 'host' && typeof (node.host as { name?: unknown })?.name === 'string') return (node.host as { name: string }).name;
  const all = hosts.hosts;
  if (all.length === 0) {
    void showInfo('No agent host is configured: run "Connect to an Agent Host…" first.');
    return undefined;
  }
  if (all.length === 1) return all[0].name;
  const picked = await quickInput.pick(
    all.map((h) => ({ label: oneLine(h.name, 120), description: oneLine(`${h.address} · ${h.state}`, 200), name: h.name })),
    { title: `${verb} Agent Host`, placeHolder: 'Which agent host?' },
  );
  return picked?.name;
}

export function registerAgentHostCommands(quickInput: OwnQuickInput, hosts: AgentHostConnections, openSessionCommand: string): vscode.Disposable[] {
  const onHost = (command: string, verb: string, run: (name: string) => Promise<unknown> | void) =>
    vscode.commands.registerCommand(command, (node?: HostArgument) =>
      report(
        (async () => {
          const name = await whichHost(quickInput, hosts, node, verb);
          if (name !== undefined) await run(name);
        })(),
      ),
    );
  return [
    vscode.commands.registerCommand(CONNECT_AGENT_HOST_COMMAND, () => report(connectAgentHost(quickInput, hosts))),
    onHost('elicitationHost.disconnectAgentHost', 'Disconnect', (name) => hosts.disconnect(name)),
    onHost('elicitationHost.reconnectAgentHost', 'Reconnect', (name) => hosts.reconnect(name)),
    onHost('elicitationHost.forgetAgentHost', 'Forget', async (name) => {
      await hosts.forget(name);
      void showInfo(`Forgot the agent host "${name}": it is gone from your settings, and its token from VS Code's secret storage.`);
    }),
    vscode.commands.registerCommand(openSessionCommand, (host: string, session: string) => {
      if (!hosts.openWaiting(host, session)) void showInfo('That question is no longer waiting.');
    }),
  ];
}
