/**
 * The ACP Registry (agentclientprotocol/registry, the list Zed and JetBrains install agents
 * from), read as untrusted data: `{version, agents: [{id, name, version, description,
 * distribution: {npx | uvx: {package, cmd?, args?, env?}, binary: {<os>-<arch>: {archive,
 * cmd, args?, env?}}}}]}` (its FORMAT.md and agent.schema.json). Each entry becomes the
 * command that would start it, which the person sees before anything is written or run:
 *
 * - npx: `npx -y <package> [args]`, or `npx -y --package=<package> <cmd> [args]` (`-y`: npx
 *   must not ask on the agent's stdin, which is ACP's channel); needs Node.js's `npx`.
 * - uvx: `uvx <package> [args]`, or `uvx --from <package> <cmd> [args]`; needs uv's `uvx`.
 * - binary: we download nothing: the program (`cmd`'s name) must already be on PATH, and
 *   the pick says where the registry offers it.
 *
 * A package must be a registry name with an optional version (never a URL, a path, a git
 * spec or a word starting with "-": npx and uvx would fetch or read those, or take them as
 * options); a command name is a plain file name; texts are capped and lose control
 * characters; an entry that breaks a rule is left out, and the rule is named. Pure.
 */
import { isRecord } from '../../base/is-record';

/** Entries read; the rest are counted as left out. */
export const MAX_REGISTRY_AGENTS = 500;
const MAX_ARGS = 64;
const MAX_ARG = 1000;
const MAX_ENV = 32;

export type Runtime = 'npx' | 'uvx' | 'binary';

export interface RegistryLaunch {
  readonly runtime: Runtime;
  /** The program the definition runs: npx, uvx, or the binary's name (looked for on PATH). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** binary: where the registry offers the download (https), for the person to fetch themselves. */
  readonly archive?: string;
}

export interface RegistryAgent {
  /** The registry's id: the name the agent gets in the setting. */
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** Every way the registry offers to run it on this platform, npx first, then uvx, then the binary. */
  readonly launches: readonly RegistryLaunch[];
}

export interface RegistryRead {
  readonly agents: readonly RegistryAgent[];
  /** Entries left out, each with the rule it broke. */
  readonly problems: readonly string[];
}

const ID = /^[a-z][a-z0-9-]{0,63}$/;
/** npm: an optional scope, a name, an optional version or tag; nothing a URL, path or git spec needs (":", a second "/"). */
const NPM_PACKAGE = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[A-Za-z0-9._~^<>=*+-]+)?$/i;
/** PyPI: a name, optional extras, an optional version specifier (PEP 508's simple forms). */
const PYPI_PACKAGE = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?(?:\[[A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*\])?(?:(?:==|>=|<=|~=|!=|<|>|@)[A-Za-z0-9.*+!_-]+)?$/;
/** A program's plain name, as `cmd` gives it ("./codex-acp", "codex-acp.exe"). */
const PROGRAM = /^(?:\.\/)?([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- an argument or value with one is refused
const HAS_CONTROL = /[\u0000-\u001f\u007f]/;

/** The registry's platform key for this machine ("linux-x86_64"), or undefined for one it has no key for. */
export function platformKey(platform: string, arch: string): string | undefined {
  const os = platform === 'win32' ? 'windows' : platform === 'darwin' || platform === 'linux' ? platform : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? `${os}-${cpu}` : undefined;
}

/** Registry text for our surfaces: one line, no control characters, capped. */
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const line = value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

class EntryError extends Error {}

function args(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_ARGS) throw new EntryError(`${where}.args must be a list of at most ${MAX_ARGS} strings`);
  return value.map((a, i) => {
    if (typeof a !== 'string' || a.length > MAX_ARG || HAS_CONTROL.test(a)) throw new EntryError(`${where}.args[${i}] must be a string of at most ${MAX_ARG} characters without control characters`);
    return a;
  });
}

function env(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value) || Object.keys(value).length > MAX_ENV) throw new EntryError(`${where}.env must map at most ${MAX_ENV} names to strings`);
  for (const [name, v] of Object.entries(value)) {
    if (!ENV_NAME.test(name) || typeof v !== 'string' || v.length > MAX_ARG || HAS_CONTROL.test(v)) throw new EntryError(`${where}.env.${name.slice(0, 40)} must be a variable name with a string value without control characters`);
  }
  return { ...(value as Record<string, string>) };
}

function program(value: unknown, where: string): string {
  const match = typeof value === 'string' ? PROGRAM.exec(value) : null;
  if (!match) throw new EntryError(`${where}.cmd must be a program's plain name`);
  return match[1];
}

function packageLaunch(runtime: 'npx' | 'uvx', raw: unknown): RegistryLaunch {
  const where = `distribution.${runtime}`;
  if (!isRecord(raw)) throw new EntryError(`${where} must be an object`);
  const pkg = raw.package;
  if (typeof pkg !== 'string' || !(runtime === 'npx' ? NPM_PACKAGE : PYPI_PACKAGE).test(pkg)) {
    throw new EntryError(`${where}.package must be ${runtime === 'npx' ? 'an npm' : 'a PyPI'} package name with an optional version (no URL, path or option)`);
  }
  const cmd = raw.cmd === undefined ? undefined : program(raw.cmd, where);
  const rest = args(raw.args, where);
  const head = runtime === 'npx' ? (cmd ? ['-y', `--package=${pkg}`, cmd] : ['-y', pkg]) : cmd ? ['--from', pkg, cmd] : [pkg];
  return { runtime, command: runtime, args: [...head, ...rest], env: env(raw.env, where) };
}

function binaryLaunch(raw: unknown, platform: string | undefined): RegistryLaunch | undefined {
  if (!isRecord(raw)) throw new EntryError('distribution.binary must be an object of platforms');
  if (platform === undefined) return undefined;
  const target = raw[platform];
  if (target === undefined) return undefined;
  const where = `distribution.binary.${platform}`;
  if (!isRecord(target)) throw new EntryError(`${where} must be an object`);
  const archive = typeof target.archive === 'string' && /^https:\/\/[^\s]{1,2000}$/.test(target.archive) ? target.archive : undefined;
  return {
    runtime: 'binary',
    command: program(target.cmd, where).replace(/\.exe$/i, ''),
    args: args(target.args, where),
    env: env(target.env, where),
    ...(archive !== undefined && { archive }),
  };
}

function readEntry(raw: unknown, platform: string | undefined): RegistryAgent {
  if (!isRecord(raw)) throw new EntryError('an entry must be an object');
  if (typeof raw.id !== 'string' || !ID.test(raw.id)) throw new EntryError('id must be lowercase letters, digits and "-", at most 64');
  const name = text(raw.name, 80);
  const description = text(raw.description, 300);
  const version = text(raw.version, 40);
  if (name === undefined || description === undefined || version === undefined) throw new EntryError('name, version and description must be non-empty strings');
  const dist = raw.distribution;
  if (!isRecord(dist)) throw new EntryError('distribution must be an object');
  const launches: RegistryLaunch[] = [];
  if (dist.npx !== undefined) launches.push(packageLaunch('npx', dist.npx));
  if (dist.uvx !== undefined) launches.push(packageLaunch('uvx', dist.uvx));
  const binary = dist.binary === undefined ? undefined : binaryLaunch(dist.binary, platform);
  if (binary) launches.push(binary);
  if (launches.length === 0) throw new EntryError(`no way to run it here (npx, uvx, or a binary for ${platform ?? 'this platform'})`);
  return { id: raw.id, name, version, description, launches };
}

/** The registry's agents that can run on `platform` (platformKey), each checked; a broken entry is named in `problems`. */
export function readRegistry(json: unknown, platform: string | undefined): RegistryRead {
  if (!isRecord(json) || !Array.isArray(json.agents)) throw new Error('the registry must be an object with an "agents" list');
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of json.agents.slice(0, MAX_REGISTRY_AGENTS).entries()) {
    const label = isRecord(raw) && typeof raw.id === 'string' ? JSON.stringify(raw.id.slice(0, 64)) : `#${index + 1}`;
    try {
      const agent = readEntry(raw, platform);
      if (seen.has(agent.id)) throw new EntryError('the id is listed twice');
      seen.add(agent.id);
      agents.push(agent);
    } catch (error) {
      if (!(error instanceof EntryError)) throw error;
      problems.push(`${text(label, 70) ?? `#${index + 1}`}: ${error.message}`);
    }
  }
  if (json.agents.length > MAX_REGISTRY_AGENTS) problems.push(`${json.agents.length - MAX_REGISTRY_AGENTS} entries past the first ${MAX_REGISTRY_AGENTS}`);
  return { agents, problems };
}
