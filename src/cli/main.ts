/**
 * `elicitation-host` (dist/cli.js): the headless runner's entry. Hands the command line to
 * the command it names, each a `<name>-args.ts` (its options and usage) and `<name>-main.ts`
 * (the run): serve, acp, acp-proxy, ask, ahp, mcp-bridge; `call` and `call-all` for anything else (whose
 * usage lists every command).
 */
import { errorMessage } from '../base/error-message';
import { terminalSafe } from '../elicitation/plain-text';
import { acpMain } from './acp-main';
import { acpProxyMain } from './acp-proxy-main';
import { ahpMain } from './ahp-main';
import { askMain } from './ask-main';
import { callMain } from './call-main';
import { mcpBridgeMain } from './mcp-bridge-main';
import { serveMain } from './serve-main';

/** The runner's version, as its clients and the servers it serves report it: package.json's, put in by the build. */
const VERSION = PACKAGE_VERSION;

export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === 'serve') return serveMain(argv.slice(1), { version: VERSION });
  if (argv[0] === 'acp') return acpMain(argv.slice(1), { version: VERSION });
  if (argv[0] === 'acp-proxy') return acpProxyMain(argv.slice(1));
  if (argv[0] === 'ask') return askMain(argv.slice(1));
  if (argv[0] === 'ahp') return ahpMain(argv.slice(1), { version: VERSION });
  if (argv[0] === 'mcp-bridge') return mcpBridgeMain(argv.slice(1));
  return callMain(argv, { version: VERSION });
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`error: ${terminalSafe(errorMessage(error))}\n`);
      process.exit(1);
    },
  );
}
