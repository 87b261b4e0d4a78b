/**
 * The arguments of `call` and `call-all` (call-main.ts runs them), and the runner's usage,
 * which lists every command. Each command is `<name>-args.ts` and `<name>-main.ts`:
 *   elicitation-host call [options] <server-url> <tool>
 *   elicitation-host call [options] <tool> -- <command> [args...]
 *   elicitation-host call-all [options] <server-url>
 *   elicitation-host call-all [options] -- <command> [args...]
 *   elicitation-host serve [options] -- <command> [args...]    (serve --help: the gateway; serve-args.ts)
 *   elicitation-host acp [options] --prompt TEXT -- <agent command>   (acp --help; acp-args.ts)
 *   elicitation-host acp-proxy [options] -- <agent command>   (acp-proxy --help; acp-proxy-args.ts)
 *   elicitation-host ask --confirm TEXT | --schema F --message M | --url U --message M   (ask-args.ts)
 *   elicitation-host ahp --url URL (--token-file F | --token-env NAME) [options]   (ahp --help; ahp-args.ts)
 *   elicitation-host mcp-bridge <server>   (mcp-bridge-args.ts)
 * Parsed by Node's own `util.parseArgs` (strict), so `--args JSON` and `--args=JSON` both work.
 */
import { parseArgs as parseNodeArgs, type ParseArgsConfig } from 'node:util';
import { type CrossAppIdentity, isClientMetadataUrl } from '../mcp/sign-in/sign-in';
import { UsageError } from './exit-code';

export interface CallOptions {
  readonly command: 'call' | 'call-all';
  readonly target: { readonly kind: 'url'; readonly url: string } | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] };
  readonly tool?: string;
  readonly args: Record<string, unknown>;
  readonly answersFile?: string;
  readonly acceptDefaults: boolean;
  readonly decline: boolean;
  readonly json: boolean;
  /** Signing in to a server that answers 401 (OAuth). */
  readonly signIn: SignInOptions;
}

export interface SignInOptions {
  readonly browser: 'system' | 'fetch';
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** A PKCS#8 PEM file: the client signs its token requests (private_key_jwt). */
  readonly clientKeyFile?: string;
  readonly clientMetadataUrl?: string;
  readonly tokenCache?: string;
  /** Enterprise-managed sign-in: an ID token traded at the identity provider. */
  readonly idp?: { readonly provider: CrossAppIdentity['idp']; readonly idTokenFile: string; readonly clientId: string; readonly clientSecret?: string };
}

export const CALL_USAGE = `Usage:
  elicitation-host call [options] <server-url> <tool>
  elicitation-host call [options] <tool> -- <command> [args...]
  elicitation-host call-all [options] <server-url>
  elicitation-host call-all [options] -- <command> [args...]
  elicitation-host serve [options] -- <command> [args...]   (the gateway: serve --help)
  elicitation-host acp [options] --prompt TEXT -- <agent command> [args...]   (an ACP agent: acp --help)
  elicitation-host acp-proxy [options] -- <agent command> [args...]   (its questions for any ACP client: acp-proxy --help)
  elicitation-host ask --confirm TEXT | --schema F --message M | --url U --message M   (a script asks: ask --help)
  elicitation-host ahp --url URL (--token-file F | --token-env NAME) [options]   (an agent host's questions: ahp --help)
  elicitation-host mcp-bridge <server>   (a window's server over stdio: mcp-bridge --help)

Options (a value follows as the next word or after "=", as in --args='{"a":1}'):
  --args JSON          tool arguments (call-all fills the rest from schema defaults)
  --answers FILE       a JSON array of ElicitResult objects, used in order, one per elicitation
  --accept-defaults    accept every form with its defaults
  --decline            decline every elicitation
  --json               print JSON lines
  -h, --help           this help

Signing in to a server that answers 401 (OAuth 2.1, as the MCP authorization spec says):
  --browser system|fetch   system (default): your browser, back to a loopback address;
                           fetch: no browser, the authorization URL's redirects are
                           followed (for test authorization servers that approve at once)
  --client-id ID           a client registered with the authorization server beforehand
  --client-secret SECRET   its secret (never printed)
  --client-key FILE        its private key (PKCS#8 PEM; EC or RSA): token requests are
                           signed with it (private_key_jwt) instead of sent a secret
  --client-metadata-url URL  an https URL of a client ID metadata document, used as the
                           client ID where the authorization server supports them
  --token-cache FILE       keep registrations and tokens in FILE (mode 0600) for the next
                           run; without it they last as long as the run
  --id-token FILE          enterprise-managed sign-in: your ID token from your identity
                           provider, traded there for a grant the server's authorization
                           server takes (with --idp-url or --idp-token-endpoint,
                           --idp-client-id and --client-id)
  --idp-url URL            the identity provider, by its issuer (metadata discovered)
  --idp-token-endpoint URL or by its token endpoint
  --idp-client-id ID       this client as the identity provider knows it
  --idp-client-secret S    its secret there, if it has one (never printed)

Everything after -- is the command that starts a stdio server, passed on untouched.

Without --answers, --accept-defaults or --decline, questions are asked on the console
(what you type into a field that looks like a password or key is not shown); without a
terminal, forms are cancelled. Links (URL mode) are declined unless the answers file
accepts them. Server text is printed without control characters (terminal escapes) and
invisible characters; answers to fields that look secret are printed as ********.

Exit code (call-all goes on after a failed tool; the first that applies wins):
  1  a connection or protocol failure (a call failed, or the server sent a question
     this client refused), or bad usage
  3  a form could not be answered as asked: --accept-defaults met a required field
     without a default, the answers file ran out or gave an answer the form refused,
     or there was no terminal to ask in
  2  a tool returned isError
  0  every call returned a result without isError`;

const OPTIONS = {
  args: { type: 'string' },
  answers: { type: 'string' },
  'accept-defaults': { type: 'boolean' },
  decline: { type: 'boolean' },
  json: { type: 'boolean' },
  browser: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'client-key': { type: 'string' },
  'client-metadata-url': { type: 'string' },
  'token-cache': { type: 'string' },
  'id-token': { type: 'string' },
  'idp-url': { type: 'string' },
  'idp-token-endpoint': { type: 'string' },
  'idp-client-id': { type: 'string' },
  'idp-client-secret': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type Parsed = ReturnType<typeof parseNodeArgs<{ args: string[]; options: typeof OPTIONS; strict: true; allowPositionals: true; tokens: true }>>;

function parseStrict(argv: readonly string[]): Parsed {
  try {
    return parseNodeArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    if (!String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) throw error;
    throw new UsageError(describeParseError(argv, (error as Error).message));
  }
}

/**
 * Node's messages suggest putting unknown options after `--`, which here would hand them to
 * the server's command: the tokens of a lenient parse say what went wrong in our words.
 */
function describeParseError(argv: readonly string[], nodeMessage: string): string {
  const { tokens } = parseNodeArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const known = Object.prototype.hasOwnProperty.call(OPTIONS, token.name) ? OPTIONS[token.name as keyof typeof OPTIONS] : undefined;
    if (!known) return `unknown option ${token.rawName}`;
    if (known.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`;
    if (known.type === 'string' && token.value === undefined) return `${token.rawName} needs a value`;
    if (known.type === 'string' && !token.inlineValue && token.value?.startsWith('-')) {
      return `${token.rawName} needs a value (for a value that starts with "-", write ${token.rawName}=VALUE)`;
    }
  }
  return nodeMessage;
}

function toolArguments(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--args is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--args must be a JSON object');
  return parsed as Record<string, unknown>;
}

export function parseCallArgs(argv: readonly string[]): CallOptions | 'help' {
  if (argv.length === 0) return 'help';
  const { values, positionals, tokens } = parseStrict(argv);
  if (values.help) return 'help';
  const terminator = tokens.find((t) => t.kind === 'option-terminator');
  // Words after `--` are the server's command line, whatever they look like.
  const before = terminator ? positionalsBefore(tokens, terminator.index) : positionals;
  const after = terminator ? argv.slice(terminator.index + 1) : undefined;
  const [command, ...rest] = before;
  if (command === undefined) throw new UsageError('a command (call or call-all) must come first');
  if (command !== 'call' && command !== 'call-all') throw new UsageError(`unknown command "${command}"`);
  const answersFile = values.answers;
  const acceptDefaults = values['accept-defaults'] === true;
  const decline = values.decline === true;
  if ([answersFile !== undefined, acceptDefaults, decline].filter(Boolean).length > 1) {
    throw new UsageError('use only one of --answers, --accept-defaults and --decline');
  }
  const args = values.args === undefined ? {} : toolArguments(values.args);
  let target: CallOptions['target'];
  let tool: string | undefined;
  if (after) {
    if (after.length === 0) throw new UsageError('a command must follow --');
    target = { kind: 'stdio', command: after[0], args: after.slice(1) };
    if (command === 'call') {
      if (rest.length !== 1) throw new UsageError('call with a command takes one tool name: call <tool> -- <command>');
      tool = rest[0];
    } else if (rest.length !== 0) {
      throw new UsageError(`unexpected ${rest.join(' ')}`);
    }
  } else {
    const expected = command === 'call' ? 2 : 1;
    if (rest.length !== expected) {
      throw new UsageError(command === 'call' ? 'call takes a server URL and a tool name' : 'call-all takes a server URL');
    }
    target = { kind: 'url', url: rest[0] };
    tool = rest[1];
  }
  return { command, target, ...(tool !== undefined && { tool }), args, ...(answersFile !== undefined && { answersFile }), acceptDefaults, decline, json: values.json === true, signIn: signInOptions(values) };
}

function signInOptions(values: Parsed['values']): SignInOptions {
  const browser = values.browser ?? 'system';
  if (browser !== 'system' && browser !== 'fetch') throw new UsageError(`--browser is system or fetch, not "${browser}"`);
  const metadataUrl = values['client-metadata-url'];
  if (metadataUrl !== undefined && !isClientMetadataUrl(metadataUrl)) throw new UsageError('--client-metadata-url must be an https URL with a path (the document\'s address)');
  if (values['client-secret'] !== undefined && values['client-id'] === undefined) throw new UsageError('--client-secret goes with --client-id');
  if (values['client-key'] !== undefined && values['client-id'] === undefined) throw new UsageError('--client-key goes with --client-id');
  return {
    browser,
    ...(values['client-id'] !== undefined && { clientId: values['client-id'] }),
    ...(values['client-secret'] !== undefined && { clientSecret: values['client-secret'] }),
    ...(values['client-key'] !== undefined && { clientKeyFile: values['client-key'] }),
    ...identityProvider(values),
    ...(metadataUrl !== undefined && { clientMetadataUrl: metadataUrl }),
    ...(values['token-cache'] !== undefined && { tokenCache: values['token-cache'] }),
  };
}

/** The --idp-* options come together, with --id-token and a --client-id, or not at all. */
function identityProvider(values: Parsed['values']): Pick<SignInOptions, 'idp'> {
  const issuer = values['idp-url'];
  const tokenEndpoint = values['idp-token-endpoint'];
  const idTokenFile = values['id-token'];
  const clientId = values['idp-client-id'];
  const secret = values['idp-client-secret'];
  if ([issuer, tokenEndpoint, idTokenFile, clientId, secret].every((v) => v === undefined)) return {};
  if ((issuer === undefined) === (tokenEndpoint === undefined)) throw new UsageError('an enterprise-managed sign-in names its identity provider once: --idp-url or --idp-token-endpoint');
  if (idTokenFile === undefined || clientId === undefined) throw new UsageError('an enterprise-managed sign-in needs --id-token and --idp-client-id');
  if (values['client-id'] === undefined) throw new UsageError('--id-token needs --client-id (the client the server\'s authorization server knows)');
  for (const [option, url] of [['--idp-url', issuer], ['--idp-token-endpoint', tokenEndpoint]] as const) {
    if (url !== undefined && !URL.canParse(url)) throw new UsageError(`${option} is not a URL: ${url}`);
  }
  return {
    idp: { provider: issuer !== undefined ? { issuer } : { tokenEndpoint: tokenEndpoint! }, idTokenFile, clientId, ...(secret !== undefined && { clientSecret: secret }) },
  };
}

function positionalsBefore(tokens: Parsed['tokens'], index: number): string[] {
  return tokens.flatMap((t) => (t.kind === 'positional' && t.index < index ? [t.value] : []));
}
