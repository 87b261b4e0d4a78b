// Sources for `loadAhp` when run unbundled (tests); the build points at dist/ahp.js instead.
export * from '../../ahp/bundle';
