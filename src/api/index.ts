/**
 * What other extensions (and the end-to-end tests) get from `activate`: version 1 of the
 * API in elicitation-host.d.ts (the contract, shipped in the package). Questions are asked
 * in the calling extension's name through the same broker, prompts, queue and history as a
 * server's; nothing mutable is handed out (not the input store, whose drafts may be
 * secrets). VS Code does not tell us which extension calls, so the caller names itself:
 * only the id of an installed extension is taken, shown as that extension's display name.
 * Its tool calls need the person's consent (tool-consent.ts).
 */
import type { CancellationToken } from 'vscode';
import type * as Public from '../../elicitation-host';
import type { Broker, FormParams, UrlParams } from '../elicitation/broker';
import type { ElicitResult } from '../elicitation/model';
import { askLive, type LiveAsk } from '../elicitation/live-ask';
import { withoutInvisible } from '../elicitation/plain-text';
import type { RequestSource } from '../elicitation/request';
import type { InputStore } from '../elicitation/store';
import { toRpcError } from '../mcp/errors';
import type { ServerManager } from '../mcp/servers/manager';
import { RequestShapeError } from '../elicitation/live-request';
import { ElicitationRequestError, invalidParams } from './errors';
import { callToolFor } from './tool-calls';
import type { ConsentExtension, ToolConsents } from '../mcp/tool-consent';

export { ElicitationRequestError } from './errors';

export type ElicitationHostApi = Public.ElicitationHostApi;
export type ServerSummary = Public.ServerSummary;

/** An extension's name as shown: text, without invisible characters, short. */
export const REQUESTER_FITS = 60;

export function requesterName(requester: unknown): string {
  const name = typeof requester === 'string' ? withoutInvisible(requester).replace(/\s+/g, ' ').trim() : '';
  if (!name) throw new TypeError('an extension is shown by a name of visible text');
  return name.length > REQUESTER_FITS ? `${name.slice(0, REQUESTER_FITS - 1)}…` : name;
}

function refused(error: unknown): ElicitationRequestError {
  if (error instanceof RequestShapeError) return new ElicitationRequestError(-32602, `Invalid input request: ${error.message}`);
  const rpc = toRpcError(error);
  return new ElicitationRequestError(rpc.code, rpc.message);
}

/** A CancellationToken as the broker's signal (fired at once if it already was). */
function signalOf(token: CancellationToken | undefined, extra?: AbortSignal, why = 'the extension withdrew the question'): AbortSignal {
  const controller = new AbortController();
  const withdraw = (): void => controller.abort(new Error(why));
  if (token?.isCancellationRequested) withdraw();
  else token?.onCancellationRequested(withdraw);
  if (extra) {
    if (extra.aborted) controller.abort(extra.reason);
    else extra.addEventListener('abort', () => controller.abort(extra.reason), { once: true });
  }
  return controller.signal;
}

export interface ApiDeps {
  readonly broker: Broker;
  readonly store: InputStore;
  readonly manager: ServerManager;
  readonly applyDefaults: () => boolean;
  /** An installed extension by id (VS Code's own lookup, without case), or undefined. */
  readonly installedExtension: (extensionId: string) => InstalledExtension | undefined;
  readonly consents: ToolConsents;
}

/** What the manifest of an installed extension says about it. */
export interface InstalledExtension {
  /** As VS Code spells it. */
  readonly id: string;
  readonly displayName?: string;
  readonly name?: string;
}

/** The name an installed extension is shown by: its display name, else its manifest's name, else its id. */
export function extensionName(extension: InstalledExtension): string {
  for (const candidate of [extension.displayName, extension.name, extension.id]) {
    if (typeof candidate === 'string' && withoutInvisible(candidate).trim() !== '') return requesterName(candidate);
  }
  return requesterName(extension.id);
}

function asker({ broker, store, manager, applyDefaults, consents }: ApiDeps, extension: ConsentExtension): Public.ExtensionAsker {
  const name = extension.name;
  const source: RequestSource = { server: name, requester: 'extension' };
  const ask = async (params: FormParams | UrlParams, src: RequestSource, signal: AbortSignal): Promise<ElicitResult> => {
    try {
      return await broker.elicit(params, { source: src, signal, applyDefaults: applyDefaults() });
    } catch (error) {
      throw refused(error);
    }
  };
  return {
    async confirm(options) {
      if (typeof options?.question !== 'string') throw new ElicitationRequestError(-32602, 'confirm needs options.question (a string)');
      // A destructive confirm from the person's own agent takes the modal, as a destructive Run Tool does.
      const src: RequestSource = options.destructive === true ? { ...source, destructive: true, personStarted: true } : source;
      const result = await ask({ message: options.question, requestedSchema: { type: 'object', properties: {} } }, src, signalOf(options.token));
      return result.action === 'accept';
    },
    elicit(params, options) {
      return ask(params as FormParams | UrlParams, source, signalOf(options?.token)) as Promise<Public.ElicitResult>;
    },
    requestInput(request, options) {
      const abandon = new AbortController();
      let live: LiveAsk;
      try {
        live = askLive({ broker, store }, request, { source, signal: signalOf(options?.token, abandon.signal), applyDefaults: applyDefaults(), origin: 'asker' });
      } catch (error) {
        const failed = Promise.reject(refused(error));
        return { onDidChangeAnswer: () => ({ dispose: () => undefined }), completion: failed, updateDraft: () => ({ ok: false, reason: 'the request was refused' }), abandon: () => undefined };
      }
      return {
        onDidChangeAnswer(listener) {
          // The public change: which question, its answer (the origin is ours to know).
          const remove = live.onDidChangeAnswer(({ questionId, answer }) => listener({ questionId, ...(answer && { answer }) }));
          return { dispose: () => void remove() };
        },
        completion: live.completion.catch((error: unknown) => {
          throw refused(error);
        }),
        updateDraft: (questionId, answer) => live.updateDraft(questionId, answer),
        abandon: () => abandon.abort(new Error('the extension withdrew the question')),
      };
    },
    callTool(server, tool, args, options) {
      return callToolFor(manager, consents, extension, { server, tool, args, signal: signalOf(options?.token, undefined, 'the extension cancelled the call') });
    },
  };
}

export function createApi(deps: ApiDeps): ElicitationHostApi {
  const { manager } = deps;
  return {
    version: 1,
    forExtension(extensionId) {
      const id = typeof extensionId === 'string' ? withoutInvisible(extensionId).trim() : '';
      if (!id) throw new TypeError('forExtension needs the id of the asking extension (context.extension.id)');
      const installed = deps.installedExtension(id);
      // Any text was once shown as the asker: a made-up name could pass for a server's question.
      if (!installed) throw invalidParams(`forExtension needs the id of an installed extension (context.extension.id); no extension "${requesterName(id)}" is installed`);
      return asker(deps, { id: installed.id, name: extensionName(installed) });
    },
    servers: () =>
      manager.servers.map((e) => ({
        name: e.definition.name,
        state: e.blocked ? 'blocked' : (e.connection?.state ?? 'stopped'),
        tools: e.connection?.tools.map((t) => t.name) ?? [],
        ...(e.connection?.protocolVersion && { protocolVersion: e.connection.protocolVersion }),
        ...(e.connection?.serverCapabilities && { capabilities: Object.keys(e.connection.serverCapabilities) }),
      })),
    // Nobody could be asked on whose behalf this call would run: the asker's callTool can.
    callTool: () => Promise.reject(invalidParams('callTool needs to know which extension calls: use forExtension(context.extension.id).callTool(server, tool, args)')),
  };
}
