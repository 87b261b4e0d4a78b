/**
 * What Add Agent's confirmation says, before anything is written: first, in words, every
 * environment variable of the entry that changes where npx, uvx, pip or Node find and load
 * code (loader-variables.ts), so fitting the dialog's rows (which keeps the start and the
 * end of a long entry) cannot hide one among ordinary variables; then the command, the other
 * variables, what it needs, where it comes from and where it is written. When the dialog
 * cannot show it all, the whole is offered (Show Whole Command) before Add. Pure.
 */
import { loaderVariables } from '../../elicitation/loader-variables';
import type { WholeInput } from '../../elicitation/request';
import { dialogText } from '../text';
import { joinCommandLine } from './command-line';

/** One agent the pick offers, with the command that would be written. */
export interface Offer {
  readonly name: string;
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly needs: string;
  /** What the machine lacks of what it needs, in words; undefined when nothing. */
  readonly missing?: string;
  readonly description?: string;
  /** "the ACP Registry (version 1.2.3)" or "the built-in list". */
  readonly from: string;
}

export interface Confirmation {
  readonly heading: string;
  /** The dialog's detail, whole (the dialog fits it to its rows). */
  readonly detail: string;
  /** The whole, to offer when the dialog cannot show all of the detail. */
  readonly whole?: WholeInput;
}

/** The confirmation of adding `offer` (replacing an agent of its name), written to `setting`. */
export function addAgentConfirmation(offer: Offer, replaces: boolean, setting: string): Confirmation {
  const loaders = loaderVariables(offer.env);
  const named = new Set(loaders.map((l) => l.name));
  const others = Object.entries(offer.env).filter(([name]) => !named.has(name));
  const count = loaders.length === 1 ? 'One of its environment variables changes' : `${loaders.length} of its environment variables change`;
  const detail = [
    ...(loaders.length > 0 ? [`${count} where npx, uvx, pip or Node find and load code:\n${loaders.map((l) => `${l.name}=${l.value}: ${l.effect}.`).join('\n')}`] : []),
    `When you start a session with it, this runs (without a shell):\n${joinCommandLine([offer.command, ...offer.args])}`,
    ...(others.length > 0 ? [`With ${loaders.length > 0 ? 'these other' : 'these'} environment variables:\n${others.map(([k, v]) => `${k}=${v}`).join('\n')}`] : []),
    offer.missing ? `Needs ${offer.needs}. ${offer.missing}.` : `Needs ${offer.needs}.`,
    `From ${offer.from}. Written to your user settings (${setting}) as "${offer.name}"${replaces ? ', replacing the agent of that name' : ''}. Nothing runs until you start a session.`,
  ].join('\n\n');
  const heading = `${replaces ? 'Replace' : 'Add'} the agent "${offer.name}"?`;
  return dialogText(detail).complete ? { heading, detail } : { heading, detail, whole: { name: 'command', text: detail, language: 'plaintext' } };
}
