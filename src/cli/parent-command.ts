/**
 * The name of the command that ran `ask`, for "Terminal: <name>": a git hook's script
 * (`/bin/sh .git/hooks/pre-push origin …` is "pre-push"), `make`, a shell (an interactive
 * one is the shell, never the file it read first). Read from
 * /proc on Linux, from `ps` elsewhere; undefined when neither says.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Programs that run a script named by their first argument: the script is the command. */
const INTERPRETERS = /^(?:sh|bash|dash|zsh|ksh|fish|node|nodejs|deno|bun|python[0-9.]*|ruby|perl|env|npx|tsx)$/;

/**
 * Their options whose value is the next argument: a file read first (VS Code's shell
 * integration starts `bash --init-file …/shellIntegration-bash.sh`, fish with
 * `--init-command "source …"`), a shell option's name, a module preloaded. Not the script.
 */
const TAKES_VALUE = new Set(['--init-file', '--rcfile', '-o', '+o', '-O', '+O', '-C', '--init-command', '-r', '--require', '--import', '--loader', '--experimental-loader']);

function base(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** The command's name from its argument vector; pure, for the tests. */
export function commandName(argv: readonly string[]): string | undefined {
  if (argv.length === 0 || argv[0] === '') return undefined;
  // A login shell's argv[0] starts with "-" ("-bash").
  const program = base(argv[0]).replace(/^-/, '');
  if (!INTERPRETERS.test(program)) return program || undefined;
  const rest = argv.slice(1);
  // `sh -c "…"` runs a command line, not a script: the shell is all we can name.
  if (rest.includes('-c') || rest.includes('-e') || rest.includes('--eval')) return program;
  const script = rest.find((a, i) => !a.startsWith('-') && !a.startsWith('+') && !a.includes('=') && !(i > 0 && TAKES_VALUE.has(rest[i - 1])));
  return script ? base(script) || program : program;
}

function parentArgv(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
  } catch {
    // No /proc (macOS, BSD): ps says it, as one line.
  }
  if (process.platform === 'win32') return undefined;
  try {
    const line = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return line === '' ? undefined : line.split(/\s+/);
  } catch {
    return undefined;
  }
}

/** The parent process's command name, or undefined. */
export function parentCommandName(): string | undefined {
  const argv = parentArgv(process.ppid);
  return argv && commandName(argv);
}
