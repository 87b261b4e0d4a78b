/**
 * The room `src/ui/sign-in/`: what a server needs of the person to let us in: this file
 * (OAuth sign-in in VS Code) and `inputs` (`${input:}` values, kept in SecretStorage, and
 * Forget Saved Inputs…, which lists both).
 *
 * Signing in to remote servers in VS Code: one `ServerSignIn` per server (kept across its
 * restarts), its registrations and tokens in SecretStorage, and the browser step. Nothing
 * opens a browser unbidden: a server that answers 401 shows "sign in required", and only
 * Sign In (or a tool call the person starts) may go on. The step itself is one consent, a
 * dialog naming the server and the authorization server's site with the exact link; then
 * the link opens (link-trust.ts: asked once) and the redirect comes back through our URI
 * handler (`vscode.env.asExternalUri`: desktop, remote windows and VS Code for the Web).
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../../mcp/config/config';
import { type LoopbackRedirect, loopbackRedirect } from '../../mcp/sign-in/loopback-redirect';
import { type BrowserStep, type CredentialStore, ServerSignIn } from '../../mcp/sign-in/sign-in';
import { openAgreedLink } from '../links/link-trust';
import { checkUrl } from '../../elicitation/url-check';
import type { Forgettable } from './inputs';
import { showDialog } from '../notify';
import { clientMetadataUrl } from '../settings';
import { linkFacts, linkSite } from '../links/url-prompt';
import { oneLine } from '../text';
import { errorMessage } from '../../base/error-message';

const CALLBACK_PATH = '/oauth-callback';
const INDEX_KEY = 'elicitationHost.signIns';

interface KeptSignIn {
  readonly server: string;
  readonly url: string;
}
/** A person signing in takes time; a sign-in that never comes back ends the wait. */
const WAIT_MS = 10 * 60_000;

export class SignIns implements vscode.UriHandler, vscode.Disposable {
  private readonly byServer = new Map<string, ServerSignIn>();
  private redirect: string;
  /** Sign-ins waiting for the browser to come back, by state; given the redirect's query. */
  private readonly waiting = new Map<string, (query: string) => void>();
  /** For authorization servers that take no redirect to VS Code: a loopback listener (started on first need). */
  private loopback: LoopbackRedirect | undefined;
  private readonly viaLoopback = new Set<string>();
  /** Servers whose sign-in the person started: their browser step may run. */
  private readonly signingIn = new Set<string>();

  constructor(
    private readonly extensionId: string,
    private readonly secrets: vscode.SecretStorage,
    /** Which servers have something kept (SecretStorage cannot list its keys): names and URLs only. */
    private readonly index: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.redirect = this.callbackUri;
  }

  /** Our URI handler's address for the redirect back, before VS Code makes it reachable. */
  private get callbackUri(): string {
    return `${vscode.env.uriScheme}://${this.extensionId}${CALLBACK_PATH}`;
  }

  private kept(): KeptSignIn[] {
    return this.index.get<KeptSignIn[]>(INDEX_KEY, []);
  }

  /** The store of one server's sign-in, noting in the index that it keeps something. */
  private storeFor(server: string, url: string): CredentialStore {
    return {
      get: async (key) => this.secrets.get(key),
      set: async (key, value) => {
        await this.secrets.store(key, value);
        if (!this.kept().some((k) => k.server === server && k.url === url)) await this.index.update(INDEX_KEY, [...this.kept(), { server, url }]);
      },
      delete: async (key) => {
        await this.secrets.delete(key);
        await this.index.update(INDEX_KEY, this.kept().filter((k) => !(k.server === server && k.url === url)));
      },
    };
  }

  /** The sign-ins kept, for Forget Saved Inputs. */
  forgettable(): Forgettable[] {
    return this.kept().map(({ server, url }) => ({
      label: `Sign-in to ${server}`,
      description: url,
      forget: () => this.signOut(server, url),
    }));
  }

  /**
   * The sign-in of an HTTP server (the connection's factory), by name: the URL it is given
   * is resolved (its variables filled in), and a new URL is a new sign-in.
   */
  forServer = (definition: ServerDefinition): ServerSignIn | undefined => {
    if (definition.config.type === 'stdio') return undefined;
    let signIn = this.byServer.get(definition.name);
    const metadataUrl = clientMetadataUrl();
    if (!signIn || signIn.serverUrl !== definition.config.url || signIn.clientId !== definition.config.oauth?.clientId || signIn.clientMetadataUrl !== metadataUrl) {
      const { oauth } = definition.config;
      const identity = {
        ...(oauth && { clientId: oauth.clientId, ...(oauth.clientSecret !== undefined && { clientSecret: oauth.clientSecret }) }),
        ...(metadataUrl !== undefined && { clientMetadataUrl: metadataUrl }),
      };
      signIn = new ServerSignIn(definition.config.url, definition.name, this.storeFor(definition.name, definition.config.url), this.browserStep(definition.name), identity);
      this.byServer.set(definition.name, signIn);
    }
    signIn.interactive = this.signingIn.has(definition.name);
    return signIn;
  };

  /** Runs `start` with the browser step allowed: the person asked to sign in. */
  async interactively<T>(serverName: string, start: () => Promise<T>): Promise<T> {
    const existing = this.byServer.get(serverName);
    // A server never reached over HTTP has nothing to sign in to (a stdio one, say).
    if (!existing) return start();
    // Where the browser comes back to, as this window can be reached: asked for each sign-in the
    // person starts, as a web window's address serves one redirect only (desktop's never changes).
    this.redirect = (await vscode.env.asExternalUri(vscode.Uri.parse(this.callbackUri))).toString(true);
    this.signingIn.add(serverName);
    existing.interactive = true;
    try {
      return await start();
    } catch (error) {
      // An authorization server that registers no redirect to VS Code: once more, back to a loopback address.
      if (this.viaLoopback.has(serverName) || !/invalid_redirect_uri/.test(errorMessage(error))) throw error;
      this.loopback ??= await loopbackRedirect((url) => this.deliver(url.search.slice(1)));
      this.viaLoopback.add(serverName);
      this.log.info(`${serverName}'s authorization server takes no redirect to VS Code: signing in through ${this.loopback.redirectUrl} instead`);
      return await start();
    } finally {
      this.signingIn.delete(serverName);
      const signIn = this.byServer.get(serverName);
      if (signIn) signIn.interactive = false;
    }
  }

  /** Forgets the server's registrations and tokens (Sign Out). */
  async signOut(serverName: string, url: string): Promise<void> {
    const signIn = this.byServer.get(serverName);
    await (signIn?.serverUrl === url ? signIn : new ServerSignIn(url, serverName, this.storeFor(serverName, url), this.browserStep(serverName))).signOut();
  }

  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    if (!this.deliver(uri.query)) this.log.warn('A sign-in redirect came back that no sign-in is waiting for; ignored.');
  }

  /** Hands a redirect's query to the sign-in waiting for its state; false when none waits. */
  private deliver(query: string): boolean {
    const state = new URLSearchParams(query).get('state') ?? '';
    const resolve = this.waiting.get(state);
    if (!resolve) return false;
    this.waiting.delete(state);
    resolve(query);
    return true;
  }

  private browserStep(server: string): BrowserStep {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the step reads the redirect of the moment
    const signIns = this;
    return {
      get redirectUrl() {
        return signIns.viaLoopback.has(server) && signIns.loopback ? signIns.loopback.redirectUrl : signIns.redirect;
      },
      authorize: (authorizationUrl, signal) => this.authorize(server, authorizationUrl, signal),
    };
  }

  private async authorize(server: string, authorizationUrl: URL, signal: AbortSignal): Promise<URL> {
    const open: vscode.MessageItem = { title: 'Open' };
    // The link prompt's rules: the site as the browser will use it, the whole link, every warning.
    const check = checkUrl(authorizationUrl.href);
    if (!check.ok) throw new Error(`the sign-in page of ${server} was refused: ${check.reason}`);
    const site = authorizationUrl.host;
    const chosen = await showDialog({
      kind: 'info',
      heading: oneLine(`Sign in to "${server}" at ${linkSite(check)}?`, 300),
      detail: [`"${server}" needs you to sign in. Your browser opens the authorization server's page:`, '', ...linkFacts(check).flatMap((line) => [line, '']), 'You come back here when you have signed in.'].join('\n'),
      buttons: [open],
    });
    if (chosen !== open) throw new Error(`the sign-in to ${server} was cancelled`);
    const state = authorizationUrl.searchParams.get('state') ?? '';
    const back = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => finish(() => reject(new Error(`no sign-in to ${server} came back within ${WAIT_MS / 60_000} minutes`))), WAIT_MS);
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.waiting.delete(state);
        settle();
      };
      this.waiting.set(state, (query) => finish(() => resolve(query)));
      signal.addEventListener('abort', () => finish(() => reject(new Error(`the sign-in to ${server} was stopped`))), { once: true });
    });
    if (!(await openAgreedLink(authorizationUrl.href, this.log))) {
      // Nobody waits for `back` now: settle it (its timer and its place in `waiting` go with it).
      this.waiting.get(state)?.('');
      throw new Error(`the browser did not open the sign-in page of ${site}`);
    }
    this.log.info(`Signing in to ${server} at ${site}: waiting for the browser to come back`);
    const query = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: oneLine(`Waiting for you to sign in to ${server} in your browser…`, 200), cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(() => {
          const resolve = this.waiting.get(state);
          if (resolve) resolve(`error=access_denied&error_description=cancelled%20in%20VS%20Code&state=${encodeURIComponent(state)}`);
        });
        return back;
      },
    );
    // Only the answer's parameters matter (code, state, iss, error).
    return new URL(`http://callback/?${query}`);
  }

  dispose(): void {
    for (const resolve of this.waiting.values()) resolve('error=access_denied&error_description=VS%20Code%20closed');
    this.waiting.clear();
    void this.loopback?.close();
  }
}
