/**
 * The versions of AHP we speak, most preferred first, and how a host picks one (the fixture
 * host negotiates as VS Code and the specification do; a client only checks the pick is one
 * it offered). Pure.
 */

export interface VersionTraits {
  /** Who speaks it. */
  readonly seenIn: string;
  /** How `reconnect` names what the client saw: one watermark, or one cursor per channel. */
  readonly reconnect: 'watermark' | 'per-channel';
}

/** What we speak, most preferred first (the host picks the highest it accepts). */
export const VERSION_TABLE: Readonly<Record<string, VersionTraits>> = {
  '1.0.0': { seenIn: 'the published specification (1.x)', reconnect: 'per-channel' },
  '0.9.0': { seenIn: 'VS Code 1.139.1', reconnect: 'watermark' },
};
export const OFFERED_VERSIONS: readonly string[] = Object.keys(VERSION_TABLE);

export function parseVersion(version: string): readonly [number, number, number] | undefined {
  const m = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a) ?? [0, 0, 0], parseVersion(b) ?? [0, 0, 0]];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * The host's pick among `offered`, as both VS Code and the specification negotiate: the
 * highest offered version with the host's major (and, below 1.0, its minor) at or below the
 * host's own. Used by the fixture host; a client only checks the pick is one it offered.
 */
export function negotiate(offered: readonly string[], hostVersions: readonly string[]): string | undefined {
  let chosen: string | undefined;
  for (const version of offered) {
    const v = parseVersion(version);
    if (!v) continue;
    const fits = hostVersions.some((host) => {
      const h = parseVersion(host);
      return h !== undefined && v[0] === h[0] && (v[0] > 0 || v[1] === h[1]) && compareVersions(version, host) <= 0;
    });
    if (fits && (chosen === undefined || compareVersions(version, chosen) > 0)) chosen = version;
  }
  return chosen;
}
