/**
 * Codex's `.codex/config.toml` edited by Connect an Agent: whatever TOML string or comment
 * the file holds (quotes of every kind, text that looks like our table's header), the
 * result parses, holds exactly one table of ours per server, keeps the person's comments
 * and changes nothing else.
 */
import { strict as assert } from 'node:assert';
import { parse } from 'smol-toml';
import { prepareRecipe } from '../../src/gateway/gateway-recipes';
import type { RecipeContext } from '../../src/gateway/recipe-merge';

const PATH = '.codex/config.toml';
const URL = 'http://127.0.0.1:4711/mcp/restaurant';
const OURS = { url: URL, bearer_token_env_var: 'ELICITATION_HOST_MCP_TOKEN' };

function codex(before: string): { content: string | undefined; problems: readonly string[] } {
  const ctx: RecipeContext = { servers: [{ name: 'restaurant', url: URL }], read: (path) => (path === PATH ? before : undefined) };
  const setup = prepareRecipe('codex', ctx);
  return { content: setup.files.find((f) => f.path === PATH)?.content, problems: setup.problems };
}

type Toml = Record<string, unknown>;
/** As plain objects (the parser's have no prototype). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const without = (value: Toml, server: string): unknown => {
  const servers = { ...(value.mcp_servers as Toml | undefined) };
  delete servers[server];
  return plain({ ...value, mcp_servers: servers });
};

/** Our table as an earlier Connect an Agent wrote it (an older port), in each spelling of its name. */
const OLD_TABLES = [
  '[mcp_servers.restaurant]',
  '[mcp_servers."restaurant"]',
  "[ mcp_servers . 'restaurant' ]  # ours",
].map((header) => `${header}\nurl = "http://127.0.0.1:5000/mcp/restaurant"\nbearer_token_env_var = "ELICITATION_HOST_MCP_TOKEN"\n`);

/** Things a config may hold that a line-by-line reading mistakes: every TOML string form, in comments and values. */
const NOISE: ReadonlyArray<readonly [string, string]> = [
  ['a comment with """', '# Prompts: use """ for long ones\n'],
  ["a comment with '''", "# or ''' for raw ones\n"],
  ['a comment with one "', '# the "quick" setting and a lone " here\n'],
  ['a comment holding our header', '# [mcp_servers.restaurant]\n'],
  ['a basic string', 'b1 = "a \\"quoted\\" [mcp_servers.restaurant] # not a comment"\n'],
  ['a basic string with """ escaped', 'b2 = "three \\"\\"\\" quotes"\n'],
  ['a literal string', "l1 = '[mcp_servers.restaurant] \"\"\" # x'\n"],
  ['a multi-line basic string holding our header', 'm1 = """\n[mcp_servers.restaurant]\nurl = "x"\n# not a comment\n"""\n'],
  ['a multi-line basic string ending in quotes', 'm2 = """say ""hi"" """"\n'],
  ['a multi-line basic string with an escaped """', 'm3 = """a \\""" b\n[mcp_servers.restaurant]\n"""\n'],
  ['a multi-line basic string with a line-ending backslash', 'm4 = """\\\n  [mcp_servers.restaurant] \\\n  """\n'],
  ['a multi-line literal string holding our header', "m5 = '''\n[mcp_servers.restaurant]\n\"\"\"\n'''\n"],
  ['a multi-line literal string ending in quotes', "m6 = '''it''s'''''\n"],
  ['a quoted key with a dot', '"mcp_servers.restaurant" = "a key, not a table"\n'],
  ['dotted keys', 'site.name = "[mcp_servers.restaurant]"\nsite."odd key".x = 1\n'],
  ['a multi-line array whose lines start with [', 'matrix = [\n  ["mcp_servers", "restaurant"],\n  [1, 2],\n]\n'],
];

describe('Codex config.toml: one table of ours, whatever strings and comments the file holds', () => {
  for (const [name, noise] of NOISE) {
    for (const old of OLD_TABLES) {
      const header = old.split('\n')[0];
      it(`${name}, before and after our old table ${header}`, () => {
        // The noise at the top (root keys or comments), and again in a table after ours.
        const before = `${noise}model = "o4"\n\n${old}\n# about the profile\n[profiles.fast]\n${noise}model = "o4-mini"\n`;
        const original = parse(before) as Toml;
        const { content, problems } = codex(before);
        assert.deepEqual(problems, []);
        assert.ok(content !== undefined, 'the file is offered');
        const result = parse(content) as Toml;
        assert.deepEqual(plain((result.mcp_servers as Toml).restaurant), OURS);
        assert.deepEqual(without(result, 'restaurant'), without(original, 'restaurant'), 'nothing else changed');
        // Header-like lines inside the noise's strings stay, twice; one more is ours.
        const headers = (t: string): number => t.split('\n').filter((line) => /^\s*\[\s*mcp_servers\s*\.\s*["']?restaurant["']?\s*\]/.test(line)).length;
        assert.equal(headers(content), 1 + 2 * headers(noise), 'one header of ours');
        for (const line of before.split('\n').filter((l) => l.startsWith('#'))) assert.ok(content.includes(line), `the comment ${line} is kept`);
      });
    }
  }

  it('a table of ours inside a file whose comment holds """ is replaced, not added a second time (Codex could not read a second one)', () => {
    const before = `# Use """ for multi-line prompts\nmodel = "o4"\n\n${OLD_TABLES[0]}`;
    const { content } = codex(before);
    assert.ok(content);
    assert.deepEqual(plain((parse(content).mcp_servers as Toml).restaurant), OURS);
  });

  it('a file that is not TOML is not rewritten: the problem is reported with its line', () => {
    const { content, problems } = codex('model = "o4\n');
    assert.equal(content, undefined);
    assert.match(problems[0], /^\.codex\/config\.toml is not valid TOML \(line 1, column \d+: .+\); fix it, then try again$/);
  });

  it('our server declared as an inline table or with dotted keys is left for the person to change', () => {
    for (const before of ['mcp_servers.restaurant.url = "https://x"\n', '[mcp_servers]\nrestaurant = { url = "https://x" }\n', '[mcp_servers.restaurant.env]\nA = "1"\n']) {
      const { content, problems } = codex(before);
      assert.equal(content, undefined, before);
      assert.match(problems[0], /declares the server "restaurant" with dotted keys or an inline table; change it by hand/, before);
    }
  });

  it('a server named like an Object property is a server like any other', () => {
    const ctx: RecipeContext = { servers: [{ name: 'constructor', url: 'http://127.0.0.1:4711/mcp/constructor' }], read: () => 'model = "o4"\n' };
    const setup = prepareRecipe('codex', ctx);
    assert.deepEqual(setup.problems, []);
    assert.deepEqual(plain((parse(setup.files[0].content).mcp_servers as Toml).constructor), ({ url: 'http://127.0.0.1:4711/mcp/constructor', bearer_token_env_var: 'ELICITATION_HOST_MCP_TOKEN' }));
  });

  it('keeps CRLF line ends', () => {
    const { content } = codex('model = "o4"\r\n\r\n[profiles.fast]\r\nmodel = "o4-mini"\r\n');
    assert.ok(content);
    assert.ok(!/[^\r]\n/.test(content), JSON.stringify(content));
    assert.deepEqual(plain((parse(content).mcp_servers as Toml).restaurant), OURS);
  });
});
