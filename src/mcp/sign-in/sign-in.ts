/**
 * The room `src/mcp/sign-in/`: signing in to servers that answer 401, without VS Code: this
 * file (the OAuth client) and `loopback-redirect` (the 127.0.0.1 redirect target). The
 * VS Code side (SecretStorage, consent, URI handler) is `src/ui/sign-in/`.
 *
 * Signing in to a remote server that answers 401: the MCP authorization flow is the SDK's
 * (`auth()`: protected resource and authorization server discovery, client ID metadata
 * documents, dynamic registration, PKCE, the resource parameter, scopes, step-up, refresh);
 * this is the client it runs as, for one server URL. What it keeps (registrations and
 * tokens) goes to a `CredentialStore` (VS Code's SecretStorage, or the runner's memory or
 * 0600 file); the browser step is a `BrowserStep` (a consent prompt and a redirect back in
 * VS Code, the system browser or plain redirects in the runner).
 *
 * The SDK asks for the browser and returns at once ("REDIRECT"), expecting a page reload:
 * here the person is still there, so `signedIn()` waits for the redirect to come back,
 * trades its code for tokens, and the operation that met the 401 or 403 runs again.
 */
import type { AddClientAuthentication, OAuthClientInformationContext, OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { loadSdk, type Sdk } from '../sdk/sdk-loader';

/** Where sign-in state lives, as text by key; nothing read from it is ever logged. */
export interface CredentialStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Sends the person to the authorization server and resolves with the URL it redirected back to. */
export interface BrowserStep {
  /** The redirect URI the authorization server is given (registered with it, too). */
  readonly redirectUrl: string;
  authorize(authorizationUrl: URL, signal: AbortSignal): Promise<URL>;
}

/** A pre-registered client, or a client ID metadata document, from the configuration or the command line. */
export interface ClientIdentity {
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** The pre-registered client authenticates with a JWT it signs (private_key_jwt) instead of a secret. */
  readonly privateKey?: { readonly pem: string; readonly algorithm: string };
  readonly clientMetadataUrl?: string;
  /** Enterprise-managed sign-in: the person's ID token from their identity provider is traded for a grant. */
  readonly crossApp?: CrossAppIdentity;
}

/** What the identity provider needs to trade an ID token for an authorization grant (ID-JAG, RFC 8693). */
export interface CrossAppIdentity {
  /** The identity provider, by its issuer (its token endpoint is discovered) or by its token endpoint. */
  readonly idp: { readonly issuer: string } | { readonly tokenEndpoint: string };
  readonly idToken: string;
  readonly idpClientId: string;
  readonly idpClientSecret?: string;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** How a sign-in gets its tokens: through the person's browser, or as the client itself. */
type Grant = 'authorization_code' | 'client_credentials' | 'jwt-bearer';

/** A client ID metadata document's address: https, with a path (the SDK refuses any other). */
export function isClientMetadataUrl(text: string): boolean {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  return url !== undefined && url.protocol === 'https:' && url.pathname !== '/';
}

/** The server needs a sign-in that may not start by itself (nothing opens a browser unbidden). */
export class SignInRequiredError extends Error {
  constructor(readonly server: string) {
    super(`${server} needs you to sign in`);
    this.name = 'SignInRequiredError';
  }
}

/** Thrown on the way to the browser when the client must first be registered again: the operation runs again. */
class RegisterAgainError extends Error {
  constructor() {
    super('the client is registered for another redirect: registering again');
    this.name = 'RegisterAgainError';
  }
}

/** How many sign-ins one operation may need (a first one, then step-ups) before it fails. */
export const MAX_SIGN_INS = 3;

interface Saved {
  tokens?: StoredOAuthTokens;
  /** Registrations by authorization server (issuer). */
  clients?: Record<string, StoredOAuthClientInformation>;
}

export class ServerSignIn implements OAuthClientProvider {
  /** Set while a sign-in may open the browser (the person asked for it, or started the call). */
  interactive = false;
  /**
   * A 2025-03-26 server (no protected resource metadata: its own origin is the authorization
   * server) whose metadata names another issuer: accepted for that server only, as that
   * revision's fallback means it.
   */
  legacyIssuer = false;
  /** The server answered 401 and only a sign-in the person starts can go on ("sign in required"). */
  required = false;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private expectedState: string | undefined;
  private pending: { url: URL } | undefined;
  private saved: Saved | undefined;
  private resource: string | undefined;
  /** The registration kept lists another redirect than this sign-in's. */
  private registeredElsewhere = false;
  /** The next sign-in registers again, tokens or not (see redirectToAuthorization). */
  private reregister = false;

  constructor(
    readonly serverUrl: string,
    private readonly server: string,
    private readonly store: CredentialStore,
    private readonly browser: BrowserStep,
    private readonly identity: ClientIdentity = {},
    private readonly clientName = 'Elicitation Host',
  ) {}

  /** The pre-registered client it signs in as, if any (a changed one is a new sign-in). */
  get clientId(): string | undefined {
    return this.identity.clientId;
  }

  private get key(): string {
    return `mcp-oauth:${this.serverUrl}`;
  }

  private async load(): Promise<Saved> {
    if (this.saved) return this.saved;
    const text = await this.store.get(this.key);
    try {
      this.saved = text ? (JSON.parse(text) as Saved) : {};
    } catch {
      this.saved = {};
    }
    return this.saved;
  }

  private async save(change: (saved: Saved) => void): Promise<void> {
    const saved = await this.load();
    change(saved);
    await this.store.set(this.key, JSON.stringify(saved));
  }

  /**
   * The grant this sign-in uses, read by the SDK after discovery. A pre-registered client
   * with a secret or key, at an authorization server that offers only the client credentials
   * grant, signs in as itself; with an ID token from an identity provider, where the server
   * takes JWT authorization grants, through that. No browser, no redirect for either.
   */
  private get grant(): Grant {
    const offered = this.discovery?.authorizationServerMetadata?.grant_types_supported;
    if (offered === undefined) return 'authorization_code';
    if (this.identity.crossApp && this.identity.clientId && offered.includes(JWT_BEARER)) return 'jwt-bearer';
    const credentials = this.identity.clientSecret !== undefined || this.identity.privateKey !== undefined;
    if (credentials && offered.includes('client_credentials') && !offered.includes('authorization_code')) return 'client_credentials';
    return 'authorization_code';
  }

  /** Signs in without a person: nothing to ask, no browser to open. */
  private get signsInAsItself(): boolean {
    return this.grant !== 'authorization_code';
  }

  get redirectUrl(): string | undefined {
    return this.signsInAsItself ? undefined : this.browser.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.identity.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const grant = this.grant;
    return {
      client_name: this.clientName,
      redirect_uris: [this.browser.redirectUrl],
      grant_types: grant === 'client_credentials' ? ['client_credentials'] : grant === 'jwt-bearer' ? [JWT_BEARER] : ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.identity.privateKey ? 'private_key_jwt' : this.identity.clientSecret ? 'client_secret_basic' : 'none',
    };
  }

  /** With a private key, the client proves itself with a signed assertion (RFC 7523) on every token request. */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    const key = this.identity.privateKey;
    const clientId = this.identity.clientId;
    if (!key || !clientId) return undefined;
    return async (headers, params, url, metadata) => {
      const sign = (await loadSdk()).createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey: key.pem, alg: key.algorithm });
      await sign(headers, params, url, metadata);
    };
  }

  /** Where the SDK found the server's resource identifier (the grant an identity provider issues names it). */
  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }

  /** The token request of a grant without a browser; the SDK's own for the authorization code. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const grant = this.grant;
    if (grant === 'client_credentials') return new URLSearchParams({ grant_type: 'client_credentials', ...(scope && { scope }) });
    if (grant !== 'jwt-bearer' || !this.identity.crossApp) return undefined;
    const idp = this.identity.crossApp;
    const audience = this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    if (!audience) throw new Error('no authorization server was found for the identity provider\'s grant');
    const sdk = await loadSdk();
    const request = {
      audience,
      resource: this.resource ?? this.serverUrl,
      idToken: idp.idToken,
      clientId: idp.idpClientId,
      ...(idp.idpClientSecret !== undefined && { clientSecret: idp.idpClientSecret }),
      ...(scope && { scope }),
    };
    const { jwtAuthGrant } = 'issuer' in idp.idp ? await sdk.discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.idp.issuer }) : await sdk.requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.idp.tokenEndpoint });
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion: jwtAuthGrant, ...(scope && { scope }) });
  }

  state(): string {
    this.expectedState = crypto.randomUUID();
    return this.expectedState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const saved = await this.load();
    // Nothing to refresh and nobody asked to sign in: stop before registering anywhere.
    if (!this.interactive && !saved.tokens && !this.signsInAsItself) {
      this.required = true;
      throw new SignInRequiredError(this.server);
    }
    const registered = ctx ? saved.clients?.[ctx.issuer] : Object.values(saved.clients ?? {})[0];
    // Registered for another redirect (a web window's address changes with each sign-in):
    // registered again before a new sign-in. While it holds tokens, only once the SDK is about
    // to send the browser (a step-up): a refresh needs the client that got them.
    const redirects = (registered as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    this.registeredElsewhere = Array.isArray(redirects) && this.redirectUrl !== undefined && !redirects.includes(this.redirectUrl);
    const stale = this.registeredElsewhere && (!saved.tokens || this.reregister);
    if (registered && !stale) return registered;
    // A pre-registered client: the same identity with every authorization server.
    if (this.identity.clientId) return { client_id: this.identity.clientId, ...(this.identity.clientSecret && { client_secret: this.identity.clientSecret }) };
    return undefined;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer ?? '';
    await this.save((s) => (s.clients = { ...s.clients, [issuer]: info }));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.required = false;
    await this.save((s) => (s.tokens = tokens));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.interactive) {
      this.required = true;
      throw new SignInRequiredError(this.server);
    }
    // A step-up as a client registered for another redirect: the authorization server would
    // refuse this one. Registered again, and the operation run again (withSignIn).
    if (this.registeredElsewhere && !this.reregister) {
      this.reregister = true;
      throw new RegisterAgainError();
    }
    this.reregister = false;
    this.pending = { url: authorizationUrl };
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in is under way');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'tokens' || scope === 'all') await this.save((s) => delete s.tokens);
    if (scope === 'client' || scope === 'all') await this.save((s) => delete s.clients);
  }

  /** Forgets everything kept for this server (Sign Out). */
  async signOut(): Promise<void> {
    this.saved = {};
    this.pending = undefined;
    this.verifier = undefined;
    this.discovery = undefined;
    await this.store.delete(this.key);
  }

  async hasTokens(): Promise<boolean> {
    return (await this.load()).tokens !== undefined;
  }

  /**
   * After an operation failed for want of authorization: if the SDK sent the person to the
   * authorization server meanwhile, waits for the redirect back and trades its code for
   * tokens (true: run the operation again). False when no sign-in was started.
   */
  async signedIn(sdk: Sdk, signal: AbortSignal): Promise<boolean> {
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return false;
    const back = await this.browser.authorize(pending.url, signal);
    const error = back.searchParams.get('error');
    if (error) {
      const description = back.searchParams.get('error_description');
      throw new Error(`the authorization server refused the sign-in: ${error}${description ? ` (${description.slice(0, 200)})` : ''}`);
    }
    if (this.expectedState !== undefined && back.searchParams.get('state') !== this.expectedState) {
      throw new Error('the sign-in came back with another state than it was sent with: ignored (a forged redirect?)');
    }
    const code = back.searchParams.get('code');
    if (!code) throw new Error('the authorization server sent the browser back without a code');
    const iss = back.searchParams.get('iss') ?? undefined;
    const scope = pending.url.searchParams.get('scope') ?? undefined;
    const result = await sdk.auth(this, {
      serverUrl: this.serverUrl,
      skipIssuerMetadataValidation: this.legacyIssuer,
      authorizationCode: code,
      ...(iss !== undefined && { iss }),
      ...(scope !== undefined && { scope }),
      ...(this.discovery?.resourceMetadataUrl && { resourceMetadataUrl: new URL(this.discovery.resourceMetadataUrl) }),
    });
    if (result !== 'AUTHORIZED') throw new Error('the sign-in did not complete');
    return true;
  }
}

/** An error that means "not authorized (enough)": a 401 the SDK could not settle, or a 403 for more scope. */
export function isAuthorizationError(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'UnauthorizedError' || name === 'InsufficientScopeError';
}

/** The SDK's refusal of authorization server metadata that names another issuer than where it was found. */
function isIssuerMismatch(error: unknown): boolean {
  return error instanceof Error && /issuer mismatch in authorization server metadata/i.test(error.message);
}

/** A server of the 2025-03-26 revision publishes no protected resource metadata. */
async function publishesNoResourceMetadata(sdk: Sdk, serverUrl: string): Promise<boolean> {
  try {
    await sdk.discoverOAuthProtectedResourceMetadata(serverUrl);
    return false;
  } catch {
    return true;
  }
}

/**
 * Runs `operation`; each time it fails for want of authorization and a sign-in was started
 * meanwhile, completes the sign-in and runs it again, at most MAX_SIGN_INS times.
 */
export async function withSignIn<T>(signIn: ServerSignIn | undefined, sdk: Sdk, signal: AbortSignal, operation: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (signIn && !signIn.legacyIssuer && isIssuerMismatch(error) && (await publishesNoResourceMetadata(sdk, signIn.serverUrl))) {
        signIn.legacyIssuer = true;
        continue;
      }
      if (signIn && error instanceof RegisterAgainError && attempt < MAX_SIGN_INS) continue;
      // A SignInRequiredError is none: nobody asked for the browser, so it goes to the caller.
      if (!signIn || !isAuthorizationError(error)) throw error;
      if (attempt >= MAX_SIGN_INS) throw new Error(`still not authorized after ${MAX_SIGN_INS} sign-ins: ${(error as Error).message}`, { cause: error });
      if (!(await signIn.signedIn(sdk, signal))) throw error;
    }
  }
}
