/**
 * The session page's Markdown reader: what agents write becomes blocks and inline runs, and
 * nothing in it is ever HTML: raw tags stay text, whatever the nesting or the input.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { type Block, type Inline, inlineText, parseInline, parseMarkdown } from '../../webview/session/markdown';

function kinds(blocks: readonly Block[]): string[] {
  return blocks.map((b) => b.t);
}

describe('the session page reads Markdown', () => {
  it('paragraphs, headings, rules and fenced code', () => {
    const blocks = parseMarkdown('# Plan\n\nFirst *this*, then **that**.\n\n---\n\n```sh\nrm -rf build\n```\n');
    assert.deepEqual(kinds(blocks), ['heading', 'paragraph', 'rule', 'code']);
    assert.deepEqual(blocks[3], { t: 'code', lang: 'sh', text: 'rm -rf build' });
    const para = blocks[1] as Extract<Block, { t: 'paragraph' }>;
    assert.deepEqual(
      para.content.map((r) => r.t),
      ['text', 'em', 'text', 'strong', 'text'],
    );
  });

  it('an unclosed fence runs to the end, as the agent is still streaming it', () => {
    const blocks = parseMarkdown('Here:\n```ts\nconst a = 1;');
    assert.deepEqual(blocks[1], { t: 'code', lang: 'ts', text: 'const a = 1;' });
  });

  it('lists, nested by indent, ordered with their start, task boxes', () => {
    const [list] = parseMarkdown('- one\n  - one.a\n- [x] two\n- [ ] three') as Array<Extract<Block, { t: 'list' }>>;
    assert.equal(list.items.length, 3);
    assert.equal(inlineText(list.items[0].content), 'one');
    assert.equal((list.items[0].children[0] as Extract<Block, { t: 'list' }>).items[0].content.length, 1);
    assert.equal(list.items[1].checked, true);
    assert.equal(list.items[2].checked, false);
    const [ordered] = parseMarkdown('3. c\n4. d') as Array<Extract<Block, { t: 'list' }>>;
    assert.equal(ordered.ordered, true);
    assert.equal(ordered.start, 3);
  });

  it('tables and quotes', () => {
    const [table, quote] = parseMarkdown('| a | b |\n|---|---|\n| 1 | `x|y` |\n\n> said\n> twice');
    assert.equal(table.t, 'table');
    assert.equal((table as Extract<Block, { t: 'table' }>).rows.length, 1);
    assert.equal(quote.t, 'quote');
  });

  it('code spans keep Markdown and tags as text; snake_case is not emphasis', () => {
    assert.deepEqual(parseInline('`**not bold**`'), [{ t: 'code', text: '**not bold**' }]);
    assert.deepEqual(parseInline('run_the_tests now'), [{ t: 'text', text: 'run_the_tests now' }]);
    assert.deepEqual(parseInline('<img src=x onerror=alert(1)>'), [{ t: 'text', text: '<img src=x onerror=alert(1)>' }]);
  });

  it('links keep their address for the page to show; it never follows them', () => {
    assert.deepEqual(parseInline('[docs](https://example.com/a)'), [{ t: 'link', href: 'https://example.com/a', children: [{ t: 'text', text: 'docs' }] }]);
  });

  it('deep nesting is bounded, and never throws whatever the text', () => {
    const deep = `${'> '.repeat(500)}x\n${'- '.repeat(500)}y\n${'*'.repeat(2000)}`;
    assert.ok(parseMarkdown(deep).length > 0);
    fc.assert(
      // The property: it returns (no throw, no endless loop) for any mix of Markdown's syntax.
      fc.property(fc.string({ unit: fc.constantFrom('*', '_', '`', '[', ']', '(', ')', '\n', ' ', '-', '#', '>', '|', 'a', '1', '.', '~', '\\', '<'), maxLength: 200 }), (text) => {
        assert.ok(Array.isArray(parseMarkdown(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every letter of the text, whatever Markdown surrounds it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('word', 'snake_case', '**b**', '*i*', '`c`', '[l](u)', '\n', ' '), { maxLength: 30 }), (parts) => {
        // Four leading spaces would make indented code, whose text is shown whole: links included.
        const text = parts.join(' ').replace(/^ +/gm, '');
        const letters = (s: string): string => s.replace(/[^a-z]/g, '');
        const shown = parseMarkdown(text)
          .map((b) => (b.t === 'paragraph' || b.t === 'heading' ? inlineText(b.content) : b.t === 'code' ? b.text : ''))
          .join('');
        // Link addresses are not shown in the text (the page shows them beside it): drop them from the expected letters.
        return letters(shown) === letters(text.replace(/\]\(u\)/g, ']'));
      }),
      { numRuns: 300 },
    );
  });

  it('inline text of every kind of run', () => {
    const runs: Inline[] = [{ t: 'strong', children: [{ t: 'text', text: 'a' }] }, { t: 'break' }, { t: 'code', text: 'b' }];
    assert.equal(inlineText(runs), 'a\nb');
  });
});
