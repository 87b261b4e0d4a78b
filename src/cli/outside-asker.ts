/**
 * Where `ask` and `acp-proxy` put a question: an answers file (or defaults, or declining)
 * when one was given; else the VS Code window of the terminal we run in (its gateway's
 * `/ask`); else, or when that window cannot be reached, the terminal itself (`/dev/tty`);
 * else nobody, and the question is cancelled with a notice saying why.
 *
 * Whatever answers, the question is read as the gateway reads it (outside-question.ts) and
 * asked through a broker: the same checks, the same "Terminal: <name>" as who asks.
 */
import type { Broker, Prompter } from '../elicitation/broker';
import type { ElicitResult } from '../elicitation/model';
import { InvalidSchemaError } from '../elicitation/schema';
import type { AskBody } from '../gateway/contract';
import { AskBodyError, describeQuestionProblems, readAskBody } from '../gateway/outside-question';
import { type AnsweringOptions, choosePrompter } from './choose-prompter';
import { ConsolePrompter } from './console-prompter';
import { openControllingTerminal, type OpenTerminal } from './controlling-terminal';
import { RunVerdict } from './exit-code';
import { createOutput, type Output } from './output';
import { runnerHost } from './runner-host';
import { askWindow, QuestionRefusedError, windowAddress, WindowUnreachableError } from './window-asker';

export type Where = 'answers' | 'window' | 'console' | 'nobody';

export interface OutsideAsker {
  /** Resolves with the answer (cancel when `signal` fires first); rejects with QuestionRefusedError when nobody could be asked it. */
  ask(body: AskBody, signal: AbortSignal): Promise<ElicitResult & { readonly where: Where }>;
  /** Lets go of the terminal, if one was opened. */
  close(): void;
}

export interface OutsideAskerOptions {
  /** --answers, --accept-defaults, --decline (acp-proxy): they answer, and nothing else does. */
  readonly answering?: AnsweringOptions;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the runner says what it does (the window is gone, nobody can answer): stderr. */
  readonly notice: (message: string) => void;
  /** What answers on the terminal print there, besides the conversation; --answers print to stderr. */
  readonly announce?: Output;
}

async function askLocally(broker: Broker, body: AskBody, signal: AbortSignal): Promise<ElicitResult> {
  const { params, source } = readAskBody(body);
  try {
    return await broker.elicit(params, { source, signal, applyDefaults: true });
  } catch (error) {
    if (error instanceof InvalidSchemaError) throw new QuestionRefusedError(`Not a question we ask: ${describeQuestionProblems(error.problems)}`);
    throw error;
  }
}

function localBroker(prompter: Prompter, out: Output): Broker {
  return runnerHost(prompter, out, { printErrors: false }).broker;
}

/** Throws QuestionRefusedError when the window's address in the environment is not one we send the token to. */
export function outsideAsker(options: OutsideAskerOptions): OutsideAsker {
  // Never stdout: it is the script's answer (ask) or the ACP stream (acp-proxy).
  const stderr = createOutput(false, (text) => process.stderr.write(text), (text) => process.stderr.write(text));
  if (options.answering) {
    const out = options.announce ?? stderr;
    const broker = localBroker(choosePrompter(options.answering, out, new RunVerdict(), (message) => new QuestionRefusedError(message)), out);
    return { ask: async (body, signal) => ({ ...(await guarded(() => askLocally(broker, body, signal))), where: 'answers' }), close: () => undefined };
  }
  const window = windowAddress(options.env);
  let terminal: OpenTerminal | undefined | null;
  let consoleBroker: Broker | undefined;
  const onConsole = (): Broker | undefined => {
    if (terminal === undefined) {
      terminal = openControllingTerminal() ?? null;
      if (terminal) {
        const { output } = terminal;
        const out = createOutput(false, (text) => output.write(text), (text) => output.write(text));
        consoleBroker = localBroker(new ConsolePrompter(out, terminal), out);
      }
    }
    return consoleBroker;
  };
  return {
    async ask(body, signal) {
      return guarded(async () => {
        if (window) {
          try {
            return { ...(await askWindow(window, body, signal)), where: 'window' as const };
          } catch (error) {
            if (!(error instanceof WindowUnreachableError)) throw error;
            options.notice(`${error.message}; asking in this terminal instead`);
          }
        }
        const broker = onConsole();
        if (broker) return { ...(await askLocally(broker, body, signal)), where: 'console' as const };
        options.notice(`${window ? 'there is no terminal to ask in either' : 'there is no VS Code window (ELICITATION_HOST_MCP_URL) and no terminal to ask in'}: the question is cancelled`);
        return { action: 'cancel' as const, where: 'nobody' as const };
      });
    },
    close() {
      if (terminal) terminal.close();
      terminal = null;
    },
  };
}

/** The body's own faults are refusals too. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AskBodyError) throw new QuestionRefusedError(`Not a question: ${error.message}`);
    throw error;
  }
}
