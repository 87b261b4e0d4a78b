/** Loads the ACP SDK bundle once, on first use (an agent starting). */
export type AcpSdk = typeof import('./acp-sdk');

let loaded: AcpSdk | undefined;

export function loadAcpSdk(): AcpSdk {
  // A plain require: the extension host loads CommonJS reliably; the build maps './acp-sdk' to dist/acp-sdk.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./acp-sdk') as AcpSdk;
  return loaded;
}
