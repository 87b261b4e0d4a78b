/**
 * Command line of `elicitation-host ask`: one question from a script, a git hook or a
 * Makefile: a yes/no, a form from a schema file, or a link.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { UsageError } from './exit-code';

export type AskWhat =
  | { readonly kind: 'confirm'; readonly message: string; readonly destructive: boolean }
  | { readonly kind: 'form'; readonly schemaFile: string; readonly message: string; readonly destructive: boolean }
  | { readonly kind: 'url'; readonly url: string; readonly message: string };

export const ASK_USAGE = `Usage:
  elicitation-host ask --confirm TEXT [--destructive]
  elicitation-host ask --schema FILE --message TEXT [--destructive]
  elicitation-host ask --url URL --message TEXT

Asks the person in the VS Code window whose terminal this runs in (through its gateway:
ELICITATION_HOST_MCP_URL and ELICITATION_HOST_MCP_TOKEN, which VS Code gives its
terminals), shown as "Terminal: <the command that ran ask>"; without a window, or when it
cannot be reached, on this terminal. Prints the answer's content as JSON on stdout (a
yes/no or a link accepted: {}); a field that looks secret is printed as ******** when
stdout is a terminal.

Options:
  --confirm TEXT     a yes/no question
  --destructive      what is asked cannot be undone: a warning dialog whose default is no
  --schema FILE      a form: a JSON file holding an elicitation schema (a flat object of
                     strings, numbers, booleans and choices, as MCP's elicitation/create)
  --url URL          a link for the person to open (https), after their click
  --message TEXT     what the form or the link is for
  -h, --help         this help

Exit code:
  0  accepted
  1  declined
  2  cancelled: dismissed, or no window and no terminal to ask in (said on stderr)
  3  not asked: bad usage, a schema outside the elicitation subset, or the window refused it`;

const OPTIONS = {
  confirm: { type: 'string' },
  destructive: { type: 'boolean' },
  schema: { type: 'string' },
  url: { type: 'string' },
  message: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseAskArgs(argv: readonly string[]): AskWhat | 'help' {
  if (argv.length === 0) return 'help';
  let parsed;
  try {
    parsed = parseNodeArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected ${positionals.join(' ')} (quote the question: --confirm "Push to main?")`);
  const kinds = [values.confirm !== undefined, values.schema !== undefined, values.url !== undefined].filter(Boolean).length;
  if (kinds !== 1) throw new UsageError('ask one thing: --confirm TEXT, --schema FILE or --url URL');
  const destructive = values.destructive === true;
  if (values.confirm !== undefined) {
    if (values.message !== undefined) throw new UsageError('--confirm is the question itself: it takes no --message');
    if (values.confirm.trim() === '') throw new UsageError('--confirm needs the question to ask');
    return { kind: 'confirm', message: values.confirm, destructive };
  }
  if (values.message === undefined || values.message.trim() === '') throw new UsageError(`--${values.schema !== undefined ? 'schema' : 'url'} needs --message TEXT: what it is for`);
  if (values.schema !== undefined) return { kind: 'form', schemaFile: values.schema, message: values.message, destructive };
  if (destructive) throw new UsageError('--destructive is for a yes/no or a form, not a link');
  return { kind: 'url', url: values.url!, message: values.message };
}
