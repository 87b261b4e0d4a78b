/**
 * A streamed reply's Markdown, read step by step (webview/session/markdown-stream.ts): what
 * the steps hand on (final blocks, then the open part) is at every step exactly what
 * parseMarkdown gives for the whole text so far, wherever the text was cut into chunks; and a
 * step reads only what is still open, not the reply so far.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { type Block, parseMarkdown } from '../../webview/session/markdown';
import { MarkdownStream, type StreamStep } from '../../webview/session/markdown-stream';

/** What a page draws from the steps: the final blocks so far, then the open part (an open fence's code grown by its `add`s). */
class Drawn {
  private readonly frozen: Block[] = [];
  private fence = '';
  private open: Block[] = [];

  take(step: StreamStep): void {
    this.frozen.push(...step.frozen);
    if (step.open.t === 'blocks') {
      this.open = [...step.open.blocks];
      return;
    }
    if (step.open.start) this.fence = '';
    this.fence += step.open.add;
    this.open = [{ t: 'code', lang: step.open.lang, text: this.fence + step.open.last }];
  }

  blocks(): Block[] {
    return [...this.frozen, ...this.open];
  }
}

/** Streams `chunks`, checking the drawing against a whole parse after every step. */
function streamed(chunks: readonly string[]): void {
  const stream = new MarkdownStream();
  const drawn = new Drawn();
  let sofar = '';
  for (const chunk of chunks) {
    stream.append(chunk);
    sofar += chunk;
    drawn.take(stream.step());
    assert.deepEqual(drawn.blocks(), parseMarkdown(sofar), `after ${JSON.stringify(sofar)}`);
  }
}

const DOCUMENTS = [
  '# Plan\n\nFirst *this*, then **that**.\n\n---\n\n```sh\nrm -rf build\n```\n\nDone.',
  'Here:\n```ts\nconst a = 1;\n\nconst b = 2;\n```\nand after.\n\n```\nunclosed\n\nstill code',
  '- one\n  - one.a\n\n  more of one\n- [x] two\n\n- three\n\n1. a\n2. b\n\nafter the list',
  '| a | b |\n|---|---|\n| 1 | `x|y` |\n| 2 | 3 |\n\n> said\n> twice\n\n> again',
  '    indented code\n\n    still code\n\nnot code\n    continued paragraph\n\n~~~~\n```\nnot the end\n~~~~\ntext',
  'a **bold\nacross** lines _and_ [a link](https://x.y) `code`\n\n\n\n## heading ##\nparagraph | with a bar\n|---|\n',
  'crlf line\r\nnext\r\n\r\n```\r\ncode\r\n```\r\nold mac\rline\r\rend',
  '```js\n``\n` ``\n```js\n```\n```\n```',
];

describe("a streamed reply's Markdown", () => {
  it('draws what a whole parse gives, cut in two at every point, for each document', () => {
    for (const doc of DOCUMENTS) {
      for (let at = 0; at <= doc.length; at++) streamed([doc.slice(0, at), doc.slice(at)]);
    }
  });

  it('draws what a whole parse gives one character at a time', () => {
    for (const doc of DOCUMENTS) streamed([...doc]);
  });

  it('draws what a whole parse gives for any mix of block syntax, cut anywhere', () => {
    const LINES = ['', ' ', 'text', 'more *text', 'it* ends', '- item', '  - nested', '    indented', '1. one', '2) two', '```', '```py', '~~~', '````', '> quote', '>', '# head', '---', '***', '| a | b |', '|---|---|', '| 1 | 2 |', '- [x] done', '\t\ttab'];
    const BREAKS = ['\n', '\n', '\n', '\r\n', '\r'];
    const documents = fc
      .array(fc.tuple(fc.constantFrom(...LINES), fc.constantFrom(...BREAKS)), { maxLength: 25 })
      .map((lines) => lines.map(([line, end]) => line + end).join(''));
    fc.assert(
      fc.property(documents, fc.array(fc.nat(), { maxLength: 12 }), (doc, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (doc.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i, all) => doc.slice(from, all[i + 1] ?? doc.length));
        streamed(chunks);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads only what is open: a long reply of closed blocks, and a long open fence, cost each step what the step adds', () => {
    // Counted, not timed: the characters each step reads again (the text after the last final block, or the fence's new lines).
    const paragraph = 'A sentence of the reply, with **bold** and `code`.\n\n';
    const stream = new MarkdownStream();
    for (let i = 0; i < 5_000; i++) {
      stream.append(paragraph);
      stream.step();
      assert.ok((stream as unknown as { tail: string }).tail.length <= paragraph.length * 2, 'what is read again stays one or two paragraphs');
    }
    const fenced = new MarkdownStream();
    fenced.append('```ts\n');
    let added = 0;
    for (let i = 0; i < 5_000; i++) {
      fenced.append(`const line${i} = ${i};\n`);
      const step = fenced.step();
      assert.equal(step.open.t, 'fence');
      if (step.open.t === 'fence') {
        added += step.open.add.length;
        assert.ok(step.open.add.length < 40, `a step hands on its new line only, not the fence so far (${step.open.add.length})`);
      }
    }
    assert.ok(added > 5_000 * 15);
  });
});
