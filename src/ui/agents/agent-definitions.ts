/**
 * The agents a person configured in `elicitationHost.agents` (name → command, args, env,
 * and optionally the mode a new session starts in), read and checked: each problem names the
 * agent and the field, and a broken entry does not hide the good ones. Where each came from
 * matters: an agent defined by the workspace's own settings runs a program the repository
 * chose, so it starts only in a trusted workspace (as workspace servers do). Pure.
 */
import { parse, type ParseError } from 'jsonc-parser';
import type { AgentDefinition } from '../../acp/ports';
import { isRecord } from '../../base/is-record';

export interface ConfiguredAgent {
  readonly definition: AgentDefinition;
  /** The workspace's settings defined it (or changed it): it runs only once the workspace is trusted. */
  readonly fromWorkspace: boolean;
  /** The mode a new session starts in, when the person chose one. */
  readonly mode?: string;
}

export interface AgentsRead {
  readonly agents: readonly ConfiguredAgent[];
  readonly problems: readonly string[];
}

const NAME = /^[\w][\w .-]{0,63}$/;
const ASKING_MODE_KEY = 'startInAskingMode';

function readOne(name: string, raw: unknown, fromWorkspace: boolean, problems: string[]): ConfiguredAgent | undefined {
  if (!NAME.test(name)) {
    problems.push(`Agent "${name.slice(0, 80)}": a name is letters, digits, spaces, ".", "-" or "_", at most 64.`);
    return undefined;
  }
  if (!isRecord(raw)) {
    problems.push(`Agent "${name}": expected an object with "command".`);
    return undefined;
  }
  if (typeof raw.command !== 'string' || raw.command.trim() === '') {
    problems.push(`Agent "${name}": "command" must be a non-empty string.`);
    return undefined;
  }
  const args = raw.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    problems.push(`Agent "${name}": "args" must be a list of strings.`);
    return undefined;
  }
  let env: Record<string, string | null> | undefined;
  if (raw.env !== undefined) {
    if (!isRecord(raw.env) || !Object.values(raw.env).every((v) => typeof v === 'string' || v === null)) {
      problems.push(`Agent "${name}": "env" must map names to strings (or null to remove one).`);
      return undefined;
    }
    env = Object.fromEntries(Object.entries(raw.env)) as Record<string, string | null>;
  }
  if (raw.mode !== undefined && typeof raw.mode !== 'string') {
    problems.push(`Agent "${name}": "mode" must be the id of one of the agent's modes.`);
    return undefined;
  }
  return {
    definition: { name, command: raw.command, args: args as string[], ...(env && { env }) },
    fromWorkspace,
    ...(typeof raw.mode === 'string' && raw.mode !== '' && { mode: raw.mode }),
  };
}

/**
 * Reads the setting's user value and its workspace value (VS Code merges objects: an agent
 * the workspace names, or changes, is the workspace's).
 */
export function readAgents(userValue: unknown, workspaceValue: unknown): AgentsRead {
  const problems: string[] = [];
  const byName = new Map<string, ConfiguredAgent>();
  for (const [value, fromWorkspace] of [
    [userValue, false],
    [workspaceValue, true],
  ] as const) {
    if (value === undefined || value === null) continue;
    if (!isRecord(value)) {
      problems.push(`elicitationHost.agents (${fromWorkspace ? 'workspace' : 'user'} settings) must be an object of agents by name.`);
      continue;
    }
    for (const [name, raw] of Object.entries(value)) {
      // The sibling setting elicitationHost.agents.startInAskingMode: VS Code's value tree puts it inside this object.
      if (name === ASKING_MODE_KEY && typeof raw === 'boolean') continue;
      const agent = readOne(name, raw, fromWorkspace, problems);
      if (agent) byName.set(name, agent);
      else if (fromWorkspace) byName.delete(name);
    }
  }
  return { agents: [...byName.values()], problems };
}

/** The largest settings file read as data (VS Code's own are a few kilobytes). */
export const SETTINGS_FILE_LIMIT = 1_000_000;

/**
 * `elicitationHost.agents` out of a settings file's text, read as data (JSON with comments;
 * nothing in it runs): a folder's `.vscode/settings.json`, or a `.code-workspace` file's
 * `settings`. VS Code hides a restricted setting's workspace value until the workspace is
 * trusted, so this is how the Agents view can show a workspace's agent waiting for trust.
 * Undefined when the file does not define it or cannot be read.
 */
export function agentsInSettingsText(text: string, file: 'folder' | 'workspace'): unknown {
  if (text.length > SETTINGS_FILE_LIMIT) return undefined;
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const settings = file === 'workspace' ? (isRecord(root) ? root.settings : undefined) : root;
  return isRecord(settings) ? settings['elicitationHost.agents'] : undefined;
}

/**
 * The mode a new session starts in: the one the person chose for the agent; else, when
 * `askFirst` is on, the agent's mode that asks before it acts (Claude Code's `default`,
 * "Manual"; any agent's mode named Manual, Ask or Default), if the agent offers one and is
 * not already in it; else the agent's own choice (undefined).
 */
export function startMode(chosen: string | undefined, askFirst: boolean, offered: readonly { readonly id: string; readonly name: string }[], current: string | undefined): string | undefined {
  if (chosen) return chosen === current ? undefined : chosen;
  if (!askFirst) return undefined;
  const asks = offered.find((m) => m.id === 'default') ?? offered.find((m) => /^(manual|ask|default)$/i.test(m.name.trim()));
  return asks && asks.id !== current ? asks.id : undefined;
}
