/**
 * A command run in a pseudo-terminal (util-linux `script`), so it has a terminal to ask on:
 * its stdin and stdout are the terminal, and so is its `/dev/tty`. Each step types its keys
 * once the output since the previous keys matches its prompt; stdout and stderr arrive
 * mixed, as a person sees them.
 */
import { spawn, spawnSync } from 'node:child_process';

export interface TerminalStep {
  readonly prompt: RegExp;
  readonly keys: string;
}

export interface TerminalRun {
  readonly code: number;
  /** What the terminal shows (control sequences and carriage returns removed). */
  readonly output: string;
  readonly raw: string;
}

/** A shell word, quoted for `sh -c`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What a terminal shows: without the control sequences (cursor moves, line clearing) readline writes around its prompts, and without carriage returns. */
export function shown(output: string): string {
  // eslint-disable-next-line no-control-regex -- ESC is exactly what a control sequence starts with
  return output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

export function runInTerminal(argv: readonly string[], steps: readonly TerminalStep[], options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {}): Promise<TerminalRun> {
  if (spawnSync('script', ['--version']).error) throw new Error('These tests need util-linux "script" to give the command a terminal (apt-get install util-linux).');
  const command = argv.map(shellQuote).join(' ');
  return new Promise((resolve) => {
    // -e: exit with the command's exit code.
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], ...(options.env && { env: options.env }), ...(options.cwd && { cwd: options.cwd }) });
    const pending = [...steps];
    let output = '';
    let answeredUpTo = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const next = pending[0];
      if (next && next.prompt.test(shown(output.slice(answeredUpTo)))) {
        pending.shift();
        answeredUpTo = output.length;
        child.stdin.write(next.keys);
      }
    });
    // A prompt that never comes fails the test with what was shown, not a bare mocha timeout.
    const stuck = setTimeout(() => child.kill(), 30_000);
    child.on('close', (code) => {
      clearTimeout(stuck);
      child.stdin.end();
      resolve({ code: code ?? -1, output: shown(output), raw: output });
    });
  });
}
