/**
 * docs/configuration.md lists every setting the extension contributes (package.json
 * `contributes.configuration`), none that it does not, each with its real default; the
 * README's short table of settings names real ones with their real defaults. A setting added
 * to package.json without its row here fails, saying where to add it.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');

interface Setting {
  readonly default?: unknown;
}

function contributedSettings(): Map<string, Setting> {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Setting> } | { properties: Record<string, Setting> }[] } };
  const sections = ([] as { properties: Record<string, Setting> }[]).concat(manifest.contributes.configuration);
  return new Map(sections.flatMap((section) => Object.entries(section.properties)));
}

/** The rows of a page's settings tables: `| \`elicitationHost.x\` | \`default\` | ... |`, with their lines. */
function settingRows(page: string): { line: number; name: string; shownDefault: string }[] {
  return readFileSync(join(REPO, page), 'utf8')
    .split('\n')
    .flatMap((text, index) => {
      const row = /^\|\s*`(elicitationHost\.[\w.]+)`\s*\|\s*`([^`]*)`\s*\|/.exec(text);
      return row ? [{ line: index + 1, name: row[1], shownDefault: row[2] }] : [];
    });
}

function wrongRows(page: string, settings: Map<string, Setting>): string[] {
  return settingRows(page).flatMap(({ line, name, shownDefault }) => {
    const setting = settings.get(name);
    if (!setting) return [`${page}:${line}: ${name} is no setting of package.json`];
    const actual = JSON.stringify(setting.default);
    return actual === shownDefault ? [] : [`${page}:${line}: ${name} shows the default ${shownDefault}; package.json has ${actual}`];
  });
}

describe('settings in the documentation', function () {
  const settings = contributedSettings();

  it('docs/configuration.md has a row for every contributed setting', function () {
    const listed = new Set(settingRows('docs/configuration.md').map((row) => row.name));
    const missing = [...settings.keys()].filter((name) => !listed.has(name));
    assert.deepEqual(missing, [], `add a row to the table in docs/configuration.md for: ${missing.join(', ')}`);
  });

  it('docs/configuration.md and the README name only real settings, with their real defaults', function () {
    assert.ok(settings.size > 10, `read ${settings.size} settings from package.json`);
    assert.deepEqual([...wrongRows('docs/configuration.md', settings), ...wrongRows('README.md', settings)], []);
  });
});
