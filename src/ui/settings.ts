/** The extension's settings, read fresh each time they matter. */
import * as vscode from 'vscode';
import type { ConnectionSettings } from '../mcp/ports';
import { isClientMetadataUrl } from '../mcp/sign-in/sign-in';

const SECTION = 'elicitationHost';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

export function connectionSettings(): ConnectionSettings {
  const c = config();
  const seconds = (key: string, fallback: number): number => Math.max(0, Number(c.get<number>(key, fallback)) || 0) * 1000;
  return {
    urlMode: c.get<boolean>('url.enabled', true),
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

/** `elicitationHost.gateway.enabled`: serve our servers to agents. */
export function gatewayEnabled(): boolean {
  return vscode.workspace.getConfiguration('elicitationHost').get<boolean>('gateway.enabled', true);
}
