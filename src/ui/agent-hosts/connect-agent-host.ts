/**
 * Connect to an Agent Host…: the agent host desktop VS Code publishes on this machine, offered
 * by name when there is one, or any host by its address and connection token. What `code agent
 * host` prints is all a person needs to paste: a URL carrying its token (`?tkn=`) has it taken
 * out, kept in VS Code's secret storage, and the URL kept without it (in the user settings,
 * with the name). `ws://` only to this machine or a socket; anywhere else `wss://`
 * (src/ahp/endpoint.ts). The host is kept, then connected: the result is said, and the Agents
 * view shows it.
 */
import * as vscode from 'vscode';
import { EndpointError, parseEndpoint, type Endpoint } from '../../ahp/endpoint';
import { showDialog, showInfo, showWarning } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { nameProblem, tokenProblem } from './agent-host-definitions';
import type { AgentHostConnections, HostView } from './agent-host-connections';
import type { LocalAgentHost } from './local-agent-host';

export const CONNECT_TITLE = 'Connect to an Agent Host';

function endpointProblem(value: string): string | undefined {
  try {
    parseEndpoint(value);
    return undefined;
  } catch (error) {
    return error instanceof EndpointError ? error.message : String(error);
  }
}

/** The name a host gets unless the person gives another: its address, without scheme or brackets. */
function defaultName(endpoint: Endpoint): string {
  const plainAddress = endpoint.kind === 'socket' ? (endpoint.path.split(/[\\/]/).pop() ?? 'agent host') : endpoint.display.replace(/^wss?:\/\//, '').replace(/[[\]]/g, '');
  const name = plainAddress.replace(/[^\p{L}\p{N}_ .:@()-]/gu, '-').slice(0, 64);
  return nameProblem(name) ? 'agent host' : name;
}

async function askName(quickInput: OwnQuickInput, value: string, hosts: AgentHostConnections, address: string): Promise<string | undefined> {
  const name = await quickInput.input({
    title: `${CONNECT_TITLE}: its name`,
    prompt: 'Shown in the Agents view and with every question its agents ask',
    value,
    ignoreFocusOut: true,
    validateInput: (v) => nameProblem(v.trim()),
  });
  const given = name?.trim();
  if (!given) return undefined;
  const taken = hosts.find(given);
  if (taken && taken.address !== address) {
    const replace = { title: 'Replace' };
    const answer = await showDialog({ kind: 'warning', heading: `An agent host named "${given}" is configured already.`, detail: `It is at ${taken.address}. Replace it with ${address}?`, buttons: [replace] });
    if (answer !== replace) return undefined;
  }
  return given;
}

function told(host: HostView | undefined, name: string): void {
  if (!host) return;
  if (host.state === 'connected') {
    const agents = host.agents.map((a) => a.displayName ?? a.provider);
    void showInfo(`Connected to the agent host "${name}" (AHP ${host.protocolVersion ?? '?'})${agents.length ? `: ${agents.join(', ')}` : ''}. Its agents' questions come here now.`);
  } else {
    void showWarning(`Could not connect to the agent host "${name}": ${host.detail ?? host.why ?? host.state}`);
  }
}

export async function connectAgentHost(quickInput: OwnQuickInput, hosts: AgentHostConnections): Promise<void> {
  const locals = await hosts.localHosts();
  if (locals.length > 0) {
    type Item = vscode.QuickPickItem & { readonly local?: LocalAgentHost };
    const items: Item[] = [
      ...locals.map((local) => ({ label: local.label, description: local.description, detail: 'Found on this machine: its address and token are read from VS Code\'s own entry.', local })),
      { label: 'Another agent host…', description: 'a ws:// or wss:// URL, or a socket path, and its connection token' },
    ];
    const picked = await quickInput.pick(items, { title: CONNECT_TITLE, placeHolder: 'Which agent host?' });
    if (!picked) return;
    if (picked.local) {
      const name = await askName(quickInput, picked.local.label, hosts, picked.local.label);
      if (!name) return;
      told(await hosts.add({ name, kind: 'local' }, undefined), name);
      return;
    }
  }
  const address = await quickInput.input({
    title: `${CONNECT_TITLE}: its address`,
    prompt: 'The URL `code agent host` printed (its token is taken out and kept in secret storage), a wss:// URL, or a socket path',
    placeHolder: 'ws://127.0.0.1:8123?tkn=… · wss://build-box:8443 · /path/to/agent-host.sock',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? undefined : endpointProblem(v)),
  });
  if (!address?.trim()) return;
  const { endpoint, tokenInUrl } = parseEndpoint(address);
  let token = tokenInUrl;
  if (token === undefined) {
    token = await quickInput.input({
      title: `${CONNECT_TITLE}: its connection token`,
      prompt: `The connection token ${endpoint.display} was started with (the one \`code agent host\` printed, or VS Code's --connection-token); empty if it has none. Kept in VS Code's secret storage.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => tokenProblem(v.trim()),
    });
    if (token === undefined) return;
    token = token.trim();
  } else if (tokenProblem(token)) {
    void showWarning(tokenProblem(token)!);
    return;
  }
  const name = await askName(quickInput, hosts.nameOf(endpoint) ?? defaultName(endpoint), hosts, endpoint.display);
  if (!name) return;
  told(await hosts.add({ name, kind: 'url', endpoint }, token), name);
}
