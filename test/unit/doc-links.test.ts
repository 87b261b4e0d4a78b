/**
 * Every relative link, image and `#anchor` in the committed Markdown (the README, docs/,
 * bench/README.md, CONTRIBUTING.md, the walkthrough's pages...) leads somewhere: a
 * committed file or folder, and a heading of the page it names. External http(s) links are
 * not fetched. A broken one fails naming the page, the line and the link. The reader's own
 * rules (GitHub's slugs, code that is not a link) are shown first, on pages written here.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brokenLinks, githubSlug, headingAnchors, markdownLinks, type DocTree } from '../support/doc-links';

const REPO = resolve(__dirname, '../..');

/** A tree of pages held in memory, for the reader's own cases. */
function memoryTree(pages: Record<string, string>, otherFiles: string[] = []): DocTree {
  const files = new Set([...Object.keys(pages), ...otherFiles]);
  const folders = new Set(['', ...[...files].flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/')))]);
  return {
    kind: (path) => (files.has(path) ? 'file' : folders.has(path) ? 'folder' : undefined),
    read: (path) => pages[path],
  };
}

/** The repository as git has it: committed (or staged) files only; a file on disk that git does not know is "uncommitted". */
function gitTree(): { pages: string[]; tree: DocTree } {
  let listing: string;
  try {
    listing = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`the link check reads the committed files with \`git ls-files\`, which failed here (${(error as Error).message.split('\n')[0]}): run the tests in a git checkout of the project`, { cause: error });
  }
  const files = new Set(listing.split('\0').filter((f) => f !== '' && existsSync(join(REPO, f))));
  const folders = new Set(['', ...[...files].flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/')))]);
  const pages = [...files].filter((f) => /\.(md|markdown)$/i.test(f) && !f.split('/').includes('node_modules')).sort();
  return {
    pages,
    tree: {
      kind: (path) => {
        if (files.has(path)) return 'file';
        if (folders.has(path)) return 'folder';
        return existsSync(join(REPO, path)) && (statSync(join(REPO, path)).isFile() || statSync(join(REPO, path)).isDirectory()) ? 'uncommitted' : undefined;
      },
      read: (path) => readFileSync(join(REPO, path), 'utf8'),
    },
  };
}

describe('documentation links', function () {
  describe('GitHub heading anchors', function () {
    it('lower-cases, drops punctuation but - and _, and makes each space a -', function () {
      assert.equal(githubSlug('Long-running work: MCP Tasks'), 'long-running-work-mcp-tasks');
      assert.equal(githubSlug('6. Questions from terminals: POST /ask'), '6-questions-from-terminals-post-ask');
      assert.equal(githubSlug('Agents of your own: ACP'), 'agents-of-your-own-acp');
      assert.equal(githubSlug('snake_case and  two spaces'), 'snake_case-and--two-spaces');
      assert.equal(githubSlug("The confirm's clock (ms) — über"), 'the-confirms-clock-ms--über');
    });

    it('reads a heading as rendered text: code without ticks, links without targets, no emphasis', function () {
      const anchors = headingAnchors(
        ['# `npm run bench`: how each pair is made comparable', '## How it is built: `@modelcontextprotocol/ext-tasks`', '## See [the gateway](docs/gateway.md) **now**', '## _Why_ not `a_b`'].join('\n'),
      );
      assert.deepEqual([...anchors], ['npm-run-bench-how-each-pair-is-made-comparable', 'how-it-is-built-modelcontextprotocolext-tasks', 'see-the-gateway-now', 'why-not-a_b']);
    });

    it('numbers repeated headings -1, -2, and ignores headings inside fenced code', function () {
      const anchors = headingAnchors(['## Exit codes', 'text', '## Exit codes', '```sh', '# a shell comment, not a heading', '```', '## Exit codes', 'Setext title', '---'].join('\n'));
      assert.deepEqual([...anchors], ['exit-codes', 'exit-codes-1', 'exit-codes-2', 'setext-title']);
    });
  });

  describe('finding links', function () {
    it('finds inline links, images, reference definitions and HTML, with their lines, but none in code', function () {
      const page = [
        'See [the API](docs/api.md#the-api) and ![a picture](docs/images/a.png "title").', // 1
        '`[not a link](nowhere.md)` and ``[nor](this.md)``', // 2
        '```md', // 3
        '[not a link either](nowhere.md)', // 4
        '```', // 5
        '[ref]: <docs/with space.md>', // 6
        '<img src="media/icon.png"> [wrapped', // 7
        'text](CONTRIBUTING.md) and a `code span that', // 8
        'wraps](nowhere.md)` too', // 9
      ].join('\n');
      assert.deepEqual(markdownLinks(page), [
        { line: 1, target: 'docs/api.md#the-api' },
        { line: 1, target: 'docs/images/a.png' },
        { line: 6, target: 'docs/with space.md' },
        { line: 7, target: 'media/icon.png' },
        { line: 8, target: 'CONTRIBUTING.md' },
      ]);
    });
  });

  describe('the check', function () {
    it('reports a missing file, a missing anchor in another page or the same page, and an uncommitted file, each with page and line', function () {
      const tree = memoryTree(
        {
          'README.md': ['# Elicitation Host', '', '[ok](docs/a.md#second-part) [ok too](#elicitation-host) [folder](docs/)', '[gone](docs/gone.md)', '[bad anchor](docs/a.md#no-such-part)', '[bad here](#nope) ![img](docs/images/missing.png)', '[web](https://example.com/x.md#y) [mail](mailto:a@b.c)'].join('\n'),
          'docs/a.md': ['# A', '## Second part', '[back](../README.md#elicitation-host) [out](../../elsewhere.md) [new](new.md)'].join('\n'),
        },
        ['docs/images/present.png'],
      );
      const withUncommitted: DocTree = { ...tree, kind: (path) => (path === 'docs/new.md' ? 'uncommitted' : tree.kind(path)) };
      const broken = brokenLinks(['README.md', 'docs/a.md'], withUncommitted).map((b) => `${b.file}:${b.line}: ${b.target}: ${b.problem}`);
      assert.deepEqual(broken, [
        'README.md:4: docs/gone.md: names docs/gone.md, which does not exist',
        'README.md:5: docs/a.md#no-such-part: no heading of docs/a.md has the anchor #no-such-part',
        'README.md:6: #nope: no heading of README.md has the anchor #nope',
        'README.md:6: docs/images/missing.png: names docs/images/missing.png, which does not exist',
        'docs/a.md:3: ../../elsewhere.md: leads out of the repository',
        'docs/a.md:3: new.md: names docs/new.md, which is not committed (git add it)',
      ]);
    });
  });

  it('every relative link and anchor in the committed Markdown resolves', function () {
    const { pages, tree } = gitTree();
    assert.ok(pages.includes('README.md') && pages.length > 5, `the check found the pages: ${pages.join(', ')}`);
    const broken = brokenLinks(pages, tree);
    assert.deepEqual(
      broken.map((b) => `${b.file}:${b.line}: ${b.target}: ${b.problem}`),
      [],
      `broken links in the documentation:\n${broken.map((b) => `  ${b.file}:${b.line}: (${b.target}) ${b.problem}`).join('\n')}\n`,
    );
  });
});
