/**
 * Add Agent…: the agents of the ACP Registry (acp-registry-source.ts: fetched at most once a
 * day, kept, and when neither can be had the built-in list, acp-agent-catalog.ts), or any other
 * command. Each says what it needs and which of that the machine lacks (looked for on PATH:
 * nothing is run). The exact command is shown in a dialog whose default is "Don't Add" before it
 * is written to the person's user settings (`elicitationHost.agents`), where a repository
 * cannot change it: what changes where code is loaded from named first, and the whole offered
 * when the dialog cannot show it all (add-agent-text.ts). Nothing starts until the person
 * opens a session.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../base/error-message';
import { showDialog, showInfo } from '../notify';
import type { OwnQuickInput } from '../quick-input/own-quick-input';
import { iconSafe, oneLine } from '../text';
import { type RegistryAgent, type RegistryLaunch, platformKey } from './acp-registry';
import { DEFAULT_REGISTRY_URL, loadRegistry, type RegistryOrigin } from './acp-registry-source';
import { AGENTS_SETTING } from './acp-agents';
import { joinCommandLine, splitCommandLine } from './command-line';
import { ACP_AGENT_CATALOG } from './acp-agent-catalog';
import { findOnPath } from './program-on-path';
import { addAgentConfirmation, type Offer } from './add-agent-text';
import { showWholeLabel, type WholeInputDocuments } from '../prompts/whole-input';

const NAME = /^[\w][\w .-]{0,63}$/;
export const REGISTRY_SETTING = 'elicitationHost.agentRegistryUrl';

const RUNTIME_NEEDS: Readonly<Record<RegistryLaunch['runtime'], (launch: RegistryLaunch) => { needs: string; missing: string }>> = {
  npx: () => ({ needs: 'Node.js (npx)', missing: 'npx is not on PATH: install Node.js, which brings npm and npx' }),
  uvx: () => ({ needs: 'uv (uvx)', missing: 'uvx is not on PATH: install uv (docs.astral.sh/uv)' }),
  binary: (l) => ({
    needs: `${l.command} on PATH`,
    missing: `${l.command} is not on PATH: Elicitation Host downloads nothing; install it yourself${l.archive ? ` (the registry offers ${l.archive})` : ''}`,
  }),
};

/** The registry's agent as an offer: the first way to run it whose program is on PATH, else its first. */
async function registryOffer(agent: RegistryAgent): Promise<Offer> {
  const found = await Promise.all(agent.launches.map((l) => findOnPath(l.command)));
  const index = Math.max(0, found.findIndex((f) => f !== undefined));
  const launch = agent.launches[index];
  const { needs, missing } = RUNTIME_NEEDS[launch.runtime](launch);
  return {
    name: agent.id,
    label: agent.name,
    command: launch.command,
    args: launch.args,
    env: launch.env,
    needs,
    ...(found[index] === undefined && { missing }),
    description: agent.description,
    from: `the ACP Registry (${agent.name} ${agent.version})`,
  };
}

async function builtInOffers(): Promise<Offer[]> {
  return Promise.all(
    ACP_AGENT_CATALOG.map(async (known) => ({
      name: known.name,
      label: known.label,
      command: known.command,
      args: known.args,
      env: {},
      needs: known.needs,
      ...((await findOnPath(known.command)) === undefined && { missing: `${known.command} is not on PATH` }),
      from: 'the built-in list',
    })),
  );
}

function originWords(origin: RegistryOrigin): string {
  const day = (at: number): string => new Date(at).toISOString().slice(0, 10);
  switch (origin.kind) {
    case 'registry':
      return 'From the ACP Registry';
    case 'cache':
      return `From the ACP Registry, as read on ${day(origin.fetchedAt)}${origin.why ? `: ${origin.why}` : ''}`;
    default:
      return `The built-in list: ${origin.why}`;
  }
}

type Item = vscode.QuickPickItem & { readonly offer?: Offer; readonly other?: true };

/** The pick's rows: where the list comes from, each agent with its command and what it needs, entries left out, then Another agent…. */
async function offerItems(cacheFile: string): Promise<Item[]> {
  // The person's user settings only: a repository's settings cannot choose the list its reader adds agents from.
  const url = vscode.workspace.getConfiguration().inspect<string>(REGISTRY_SETTING)?.globalValue ?? DEFAULT_REGISTRY_URL;
  const listing = await loadRegistry({ url, cacheFile, platform: platformKey(process.platform, process.arch) });
  const offers = listing.read ? await Promise.all(listing.read.agents.map(registryOffer)) : await builtInOffers();
  const left = listing.read?.problems ?? [];
  const separator = (label: string): Item => ({ label: oneLine(label, 300), kind: vscode.QuickPickItemKind.Separator });
  return [
    separator(originWords(listing.origin)),
    ...offers.map((offer) => ({
      label: iconSafe(offer.label, 80),
      description: iconSafe(joinCommandLine([offer.command, ...offer.args]), 200),
      detail: offer.missing ? `$(warning) Needs ${iconSafe(offer.needs, 200)}: ${iconSafe(offer.missing, 300)}` : iconSafe([offer.description, `Needs: ${offer.needs}`].filter(Boolean).join(' · '), 400),
      offer,
    })),
    separator(left.length > 0 ? `${left.length} registry entr${left.length === 1 ? 'y' : 'ies'} left out: ${left[0]}` : ''),
    { label: 'Another agent…', description: 'any command that speaks ACP over stdio', other: true },
  ];
}

/** The command typed for Another agent…, and the name it gets. */
async function typedAgent(quickInput: OwnQuickInput): Promise<Offer | undefined> {
  const line = await quickInput.input({
    title: 'Add Agent: its command',
    prompt: 'The command that starts the agent in ACP mode (no shell: quotes group words, nothing is expanded)',
    placeHolder: 'my-agent --acp',
    validateInput: (value) => {
      try {
        return splitCommandLine(value).length === 0 ? 'Type the command.' : undefined;
      } catch (error) {
        return errorMessage(error);
      }
    },
  });
  if (!line) return undefined;
  const [command, ...args] = splitCommandLine(line);
  const name = await quickInput.input({
    title: 'Add Agent: its name',
    prompt: 'Shown as who asks in every question and permission of this agent',
    value: command.split('/').pop()?.replace(/[^\w .-]/g, '') ?? '',
    validateInput: (value) => (NAME.test(value) ? undefined : 'Letters, digits, spaces, ".", "-" or "_", at most 64.'),
  });
  if (!name) return undefined;
  return { name, label: name, command, args, env: {}, needs: `${command} on PATH`, from: 'your command line' };
}

/**
 * The exact command, before anything is written: "Don't Add" is the default (the first button;
 * VS Code adds Cancel after). When the dialog cannot show all of it, Show Whole Command opens
 * the whole in a read-only editor, read while a quick pick waits (the modal blocks the window),
 * and the same dialog comes back.
 */
async function confirmed(quickInput: OwnQuickInput, wholeInputs: WholeInputDocuments, offer: Offer, replaces: boolean): Promise<boolean> {
  const add: vscode.MessageItem = { title: replaces ? 'Replace' : 'Add' };
  // Not a close affordance: VS Code 1.103 moves that one last and makes the next button the default.
  const keep: vscode.MessageItem = { title: replaces ? "Don't Replace" : "Don't Add" };
  const { heading, detail, whole } = addAgentConfirmation(offer, replaces, AGENTS_SETTING);
  const showWhole: vscode.MessageItem | undefined = whole && { title: showWholeLabel(whole) };
  for (;;) {
    const answer = await showDialog({ kind: 'warning', heading, detail, buttons: [keep, add, ...(showWhole ? [showWhole] : [])] });
    if (answer !== showWhole || !whole) return answer === add;
    await wholeInputs.open(whole, offer.from);
    // Back first: Enter goes back to the dialog, whose default is not to add.
    const back = { label: '$(arrow-left) Back to the Decision' };
    const read = await quickInput.pick([back, { label: keep.title }], {
      title: oneLine(heading, 200),
      placeHolder: 'The whole command is open in an editor: read it there, then go back to the decision',
      // The editor is read (and scrolled) while this waits.
      ignoreFocusOut: true,
    });
    if (read !== back) return false;
  }
}

/**
 * The whole flow; `cacheFile` keeps the registry between windows (global storage). Returns
 * the name written, or undefined when the person stopped.
 */
export async function addAgent(quickInput: OwnQuickInput, wholeInputs: WholeInputDocuments, existing: (name: string) => boolean, cacheFile: string): Promise<string | undefined> {
  const picked = await quickInput.pick(offerItems(cacheFile), { title: 'Add Agent', placeHolder: 'Which agent? It runs when you start a session with it.', matchOnDescription: true });
  if (!picked) return undefined;
  const offer = picked.offer ?? (await typedAgent(quickInput));
  if (!offer || !(await confirmed(quickInput, wholeInputs, offer, existing(offer.name)))) return undefined;
  const config = vscode.workspace.getConfiguration();
  const current = (config.inspect<Record<string, unknown>>(AGENTS_SETTING)?.globalValue ?? {}) as Record<string, unknown>;
  const env = Object.keys(offer.env).length > 0 ? { env: offer.env } : {};
  await config.update(AGENTS_SETTING, { ...current, [offer.name]: { command: offer.command, args: [...offer.args], ...env } }, vscode.ConfigurationTarget.Global);
  void showInfo(`Added the agent "${offer.name}" to your user settings. Start a session with it from the Agents view.`);
  return offer.name;
}
