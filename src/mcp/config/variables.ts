/**
 * Variables in server definitions, as VS Code substitutes them: `${workspaceFolder}`,
 * `${userHome}`, `${env:NAME}` and `${input:id}` (asked once, then remembered); in a
 * portable file (`.mcp.json`, `~/.copilot/mcp-config.json`), as Claude Code and Copilot CLI
 * do: `${NAME}` and `${NAME:-default}` from the environment, an unset one without a default
 * an error naming it.
 */
import { parse as parseDotenv } from 'dotenv';
import type { InputDefinition, ServerConfig } from './config';

export interface VariableContext {
  /** The folder whose `mcp.json` defined the server (the first folder for user servers). */
  readonly workspaceFolder?: string;
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly inputs: readonly InputDefinition[];
  /** Asks for (or recalls) an input's value; undefined when the person dismissed it. */
  resolveInput(input: InputDefinition): Promise<string | undefined>;
  /** The definition comes from a portable file: `${NAME}` and `${NAME:-default}` only. */
  readonly portable?: boolean;
}

export class VariableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VariableError';
  }
}

const VARIABLE = /\$\{([^}]+)\}/g;

/** The `${input:id}` ids a configuration uses, in order of first use. */
export function inputIdsIn(config: ServerConfig): string[] {
  const ids = new Set<string>();
  for (const text of stringsOf(config)) {
    for (const m of text.matchAll(VARIABLE)) if (m[1].startsWith('input:')) ids.add(m[1].slice(6));
  }
  return [...ids];
}

function stringsOf(config: ServerConfig): string[] {
  return config.type === 'stdio'
    ? [config.command, ...config.args, ...Object.values(config.env).filter((v): v is string => v !== null), config.cwd ?? '', config.envFile ?? '']
    : [config.url, ...Object.values(config.headers), ...(config.oauth ? [config.oauth.clientId, config.oauth.clientSecret ?? ''] : [])];
}

/** `${NAME}` or `${NAME:-default}`, as a POSIX shell and Claude Code read them. */
const PORTABLE_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * The gateway's token is in the extension host's environment (for the agents run there); a
 * server's definition never gets it: it would send it wherever the server is.
 */
const GATEWAY_TOKEN = 'ELICITATION_HOST_MCP_TOKEN';

function fromEnv(env: VariableContext['env'], name: string): string | undefined {
  if (name === GATEWAY_TOKEN) throw new VariableError(`${name} is Elicitation Host's gateway token: it is not given to a server`);
  return env[name];
}

function portableSubstitute(text: string, env: VariableContext['env']): string {
  return text.replace(PORTABLE_VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    const value = fromEnv(env, name);
    // `:-` as the shell reads it: the default also stands in for an empty value.
    if (value !== undefined && (value !== '' || fallback === undefined)) return value;
    if (fallback !== undefined) return fallback;
    throw new VariableError(`\${${name}} is used but ${name} is not set in the environment (and has no default: \${${name}:-default})`);
  });
}

/** Substitutes every variable; throws VariableError naming what could not be resolved. */
export async function resolveVariables(config: ServerConfig, ctx: VariableContext): Promise<ServerConfig> {
  if (ctx.portable) return substituteAll(config, (text) => portableSubstitute(text, ctx.env));
  const inputValues = new Map<string, string>();
  for (const id of inputIdsIn(config)) {
    const input = ctx.inputs.find((i) => i.id === id);
    if (!input) throw new VariableError(`\${input:${id}} is used but no input with id "${id}" is defined in "inputs"`);
    const value = await ctx.resolveInput(input);
    if (value === undefined) throw new VariableError(`no value was given for input "${id}"`);
    inputValues.set(id, value);
  }
  const substitute = (text: string): string =>
    text.replace(VARIABLE, (whole, name: string) => {
      if (name === 'workspaceFolder') {
        if (ctx.workspaceFolder === undefined) throw new VariableError('${workspaceFolder} is used but no folder is open');
        return ctx.workspaceFolder;
      }
      if (name === 'userHome') return ctx.userHome;
      if (name.startsWith('env:')) return fromEnv(ctx.env, name.slice(4)) ?? '';
      if (name.startsWith('input:')) return inputValues.get(name.slice(6))!;
      // Unknown variables are left as written, as VS Code does.
      return whole;
    });
  return substituteAll(config, substitute);
}

function substituteAll(config: ServerConfig, substitute: (text: string) => string): ServerConfig {
  if (config.type === 'stdio') {
    return {
      ...config,
      command: substitute(config.command),
      args: config.args.map(substitute),
      env: Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, v === null ? null : substitute(v)])),
      ...(config.cwd !== undefined && { cwd: substitute(config.cwd) }),
      ...(config.envFile !== undefined && { envFile: substitute(config.envFile) }),
    };
  }
  return {
    ...config,
    url: substitute(config.url),
    headers: Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k, substitute(v)])),
    ...(config.oauth && { oauth: { clientId: substitute(config.oauth.clientId), ...(config.oauth.clientSecret !== undefined && { clientSecret: substitute(config.oauth.clientSecret) }) } }),
  };
}

/**
 * Parses a `.env` file (`envFile`) with dotenv's own parser, so it reads as users of dotenv
 * expect: `#` comments, `export ` prefixes, single, double and backtick quotes, values over
 * several lines inside quotes, `#` inside quotes, `\n` and `\r` in double quotes.
 */
export function parseEnvFile(text: string): Record<string, string> {
  return parseDotenv(text);
}
