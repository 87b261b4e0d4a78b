/** The extension's settings, read fresh each time they matter. */
import * as vscode from 'vscode';
import type { ConnectionSettings } from '../mcp/ports';
import { isClientMetadataUrl } from '../mcp/sign-in/sign-in';

const SECTION = 'elicitationHost';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/**
 * A switch whose "on" gives away more of the person (serves their servers to the window's
 * terminals, offers servers links, keeps their answers): any level of settings may turn it
 * off, but a repository's settings cannot turn it on against the person's own "off".
 */
function personsSwitch(key: string, fallback: boolean): boolean {
  const c = config();
  return c.inspect<boolean>(key)?.globalValue !== false && c.get<boolean>(key, fallback);
}

export function connectionSettings(): ConnectionSettings {
  const c = config();
  const seconds = (key: string, fallback: number): number => Math.max(0, Number(c.get<number>(key, fallback)) || 0) * 1000;
  return {
    urlMode: personsSwitch('url.enabled', true),
    applyDefaults: c.get<boolean>('applyDefaults', true),
    toolTimeoutMs: seconds('toolCallTimeoutSeconds', 60),
    elicitationTimeoutMs: seconds('elicitationTimeoutSeconds', 0),
    maxRounds: Math.max(1, Math.floor(c.get<number>('inputRequired.maxRounds', 5))),
    negotiation: c.get<string>('protocol', 'auto') === '2025' ? 'legacy' : 'auto',
    tasks: {
      optionalAsTask: c.get<boolean>('tasks.optionalToolsAsTasks', false) === true,
      // Out-of-range values fall back to the defaults in src/mcp/connection/tasks/bounds.ts.
      maxWaitMs: Math.min(1440, Number(c.get<number>('tasks.maxWaitMinutes', 60)) || 0) * 60_000,
      maxLive: Math.min(100, Math.floor(Number(c.get<number>('tasks.maxLivePerServer', 10)) || 0)),
    },
  };
}

export function forceForm(): boolean {
  return config().get<boolean>('forceForm', false);
}

export function autoStart(serverName: string): boolean {
  const names = config().get<string[]>('autoStart', []);
  return names.includes('*') || names.includes(serverName);
}

/** `elicitationHost.oauth.clientMetadataUrl`: the client ID metadata document the person's organisation hosts, if any. */
export function clientMetadataUrl(): string | undefined {
  const url = config().get<string>('oauth.clientMetadataUrl', '').trim();
  return isClientMetadataUrl(url) ? url : undefined;
}

export function userServers(): unknown {
  return config().get<unknown>('servers', {});
}

export function affects(event: vscode.ConfigurationChangeEvent, key: string): boolean {
  return event.affectsConfiguration(`${SECTION}.${key}`);
}

/**
 * `elicitationHost.agents.startInAskingMode`, from the person's user settings only: turned
 * off, it starts their agent in a mode that acts without asking, which is theirs to choose,
 * never a repository's (the setting is application-scoped too, so VS Code keeps it out of
 * workspace settings; read this way, it stays the person's whatever the scope).
 */
export function startInAskingMode(): boolean {
  return config().inspect<boolean>('agents.startInAskingMode')?.globalValue !== false;
}

/** `elicitationHost.gateway.enabled`: serve our servers to agents. */
export function gatewayEnabled(): boolean {
  return personsSwitch('gateway.enabled', true);
}

/** `elicitationHost.history.persist`: keep the History in the workspace's storage. */
export function persistHistory(): boolean {
  return personsSwitch('history.persist', true);
}
