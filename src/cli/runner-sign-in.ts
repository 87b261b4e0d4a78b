/**
 * How the runner signs in to a server that answers 401: the browser step the options chose,
 * the client identity given (pre-registered, or a client ID metadata document), and where
 * sign-ins are kept. The person ran the command, so a sign-in may open the browser at once.
 */
import type { ServerDefinition } from '../mcp/config/config';
import { type BrowserStep, type ClientIdentity, ServerSignIn } from '../mcp/sign-in/sign-in';
import type { SignInOptions } from './call-args';
import { fetchBrowserStep, systemBrowserStep } from './browser-step';
import { readClientKey, readSecretFile } from './client-key';
import type { Output } from './output';
import { fileStore, memoryStore } from './token-cache';

export interface RunnerSignIn {
  readonly forServer: (definition: ServerDefinition) => ServerSignIn | undefined;
  close(): Promise<void>;
}

export async function runnerSignIn(options: SignInOptions, remote: boolean, out: Output): Promise<RunnerSignIn> {
  // A stdio server signs nobody in: no listener for a redirect that cannot come.
  if (!remote) return { forServer: () => undefined, close: async () => undefined };
  const store = options.tokenCache ? fileStore(options.tokenCache) : memoryStore();
  const browser: BrowserStep & { close?(): Promise<void> } = options.browser === 'fetch' ? fetchBrowserStep() : await systemBrowserStep((line) => out.line(line, { type: 'sign-in' }));
  const identity: ClientIdentity = {
    ...(options.clientId !== undefined && { clientId: options.clientId }),
    ...(options.clientSecret !== undefined && { clientSecret: options.clientSecret }),
    ...(options.clientKeyFile !== undefined && { privateKey: readClientKey(options.clientKeyFile) }),
    ...(options.clientMetadataUrl !== undefined && { clientMetadataUrl: options.clientMetadataUrl }),
    ...(options.idp !== undefined && {
      crossApp: { idp: options.idp.provider, idToken: readSecretFile(options.idp.idTokenFile, '--id-token'), idpClientId: options.idp.clientId, ...(options.idp.clientSecret !== undefined && { idpClientSecret: options.idp.clientSecret }) },
    }),
  };
  return {
    forServer: (definition) => {
      if (definition.config.type === 'stdio') return undefined;
      const signIn = new ServerSignIn(definition.config.url, definition.name, store, browser, identity, 'Elicitation Host (runner)');
      signIn.interactive = true;
      return signIn;
    },
    close: async () => {
      await browser.close?.();
    },
  };
}
