/**
 * Each room (a folder inside a layer of src/, such as src/ui/views/ or
 * src/mcp/connection/tasks/) says in its main file's header what it holds: "The room
 * `src/ui/views/`: this file (...), `pending` (...)". The header names every file of the
 * folder and every room inside it, so a file added to a room without a word in its header
 * fails here. Read from the source tree as it is: the folders and the headers' own text.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');
const SRC = join(REPO, 'src');

/** The rooms: every folder below a layer (src/<layer>/<room>, and rooms inside rooms). */
function rooms(dir: string, depth = 0): string[] {
  const inside = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return inside.flatMap((entry) => {
    const path = join(dir, entry.name);
    return [...(depth >= 1 ? [path] : []), ...rooms(path, depth + 1)];
  });
}

/** A file's opening comment, its lines without the leading ` * `. */
function header(file: string): string {
  const match = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(file, 'utf8'));
  return match ? match[1].replace(/^\s*\* ?/gm, '') : '';
}

/** A header names a file as `name` or `name.ts`, a room inside as `name/`; prose may break a name's backticks nowhere. */
function names(text: string, name: string): boolean {
  return text.includes(`\`${name}\``) || text.includes(`\`${name}.ts\``) || text.includes(`\`${name}/\``);
}

describe('every room says in its header what it holds', () => {
  const found = rooms(SRC);

  it('finds the rooms of src/mcp and src/ui, and the room inside a connection', () => {
    const paths = found.map((room) => relative(REPO, room));
    for (const room of ['src/mcp/connection', 'src/mcp/connection/tasks', 'src/ui/views', 'src/ui/agents']) assert.ok(paths.includes(room), `${room} is a room: ${paths.join(', ')}`);
  });

  for (const room of found) {
    const path = `${relative(REPO, room)}/`;
    it(`${path}: one header names each of its files and rooms`, () => {
      const entries = readdirSync(room, { withFileTypes: true });
      const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => entry.name);
      const inner = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      const mains = files.filter((file) => header(join(room, file)).includes(`The room \`${path}\``));
      assert.equal(mains.length, 1, `${path}: one file's header starts "The room \`${path}\`: ..." and says what the room holds; found ${mains.length} (${mains.join(', ') || 'none'}) among ${files.join(', ')}`);
      const [main] = mains;
      const text = header(join(room, main));
      const others = [...files.filter((file) => file !== main).map((file) => file.replace(/(\.d)?\.ts$/, '')), ...inner];
      const left = others.filter((name) => !names(text, name));
      assert.deepEqual(left, [], `${relative(REPO, join(room, main))}: the header of the room ${path} leaves out ${left.map((name) => `\`${name}\``).join(', ')}: say what each holds`);
    });
  }
});
