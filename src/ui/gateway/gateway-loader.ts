/** Loads the gateway bundle once, on first use (see src/gateway/bundle.ts). */
export type GatewayModule = typeof import('../../gateway/bundle');

let loaded: GatewayModule | undefined;

export function loadGateway(): GatewayModule {
  // A plain require: the build maps './gateway-bundle' to dist/gateway.js; tests run the sources.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./gateway-bundle') as GatewayModule;
  return loaded;
}
