/**
 * The terminal the person runs us in, opened as `/dev/tty`: for `ask` and `acp-proxy`, whose
 * stdin and stdout are not the person's (a git hook's stdin holds the refs; an ACP client
 * owns the proxy's stdio). Undefined when there is none (a CI job, a detached process, an
 * editor that started the proxy without a terminal) or on Windows, where it is not looked for.
 */
import { closeSync, openSync } from 'node:fs';
import { isatty, ReadStream, WriteStream } from 'node:tty';
import type { ConsoleTerminal } from './console-prompter';

export interface OpenTerminal extends ConsoleTerminal {
  /** Lets go of the terminal, so it no longer keeps the process alive. */
  close(): void;
}

export function openControllingTerminal(): OpenTerminal | undefined {
  if (process.platform === 'win32') return undefined;
  let readFd: number | undefined;
  let writeFd: number | undefined;
  try {
    readFd = openSync('/dev/tty', 'r');
    writeFd = openSync('/dev/tty', 'w');
    if (!isatty(readFd) || !isatty(writeFd)) throw new Error('/dev/tty is not a terminal');
  } catch {
    // ENXIO: no controlling terminal.
    for (const fd of [readFd, writeFd]) if (fd !== undefined) closeSync(fd);
    return undefined;
  }
  const input = new ReadStream(readFd);
  const output = new WriteStream(writeFd);
  return {
    input,
    output,
    close() {
      input.destroy();
      output.end();
    },
  };
}
