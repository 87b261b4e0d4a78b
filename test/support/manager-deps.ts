/**
 * What a ServerManager needs in the integration tests: a fresh store and broker around the
 * test's prompter, one log, a trusted workspace in `folder`, a fixed home, and nothing
 * started by itself; a test overrides what it varies.
 */
import { readFile } from 'node:fs/promises';
import type { Prompter } from '../../src/elicitation/broker';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import type { ManagerDeps } from '../../src/mcp/servers/manager';
import { DEFAULT_SETTINGS, type MemoryLog, ScriptedUrlFlow } from './servers';

export function managerDeps(prompter: Prompter, log: MemoryLog, folder: string, overrides: Partial<ManagerDeps> = {}): ManagerDeps {
  return {
    broker: createBroker({ store: new InputStore(), prompter }),
    settings: () => DEFAULT_SETTINGS,
    roots: () => [],
    clientInfo: { name: 'tests', version: '0' },
    urlFlow: new ScriptedUrlFlow(),
    logFor: () => log,
    workspaceTrusted: () => true,
    autoStart: () => false,
    userHome: '/home/tester',
    env: {},
    firstWorkspaceFolder: () => folder,
    resolveInput: async () => undefined,
    readFile: (path) => readFile(path, 'utf8'),
    ...overrides,
  };
}
