// Sources for `loadGateway` when run unbundled (tests); the build points at dist/gateway.js instead.
export * from '../../gateway/bundle';
