import { strict as assert } from 'node:assert';
import { formatToolResult } from '../../src/mcp/result-format';
import { argumentSkeleton, argumentsFor, schemaDefaults } from '../../src/mcp/tool-args';

describe('a tool result as a document', () => {
  it('shows text, images, resource links, embedded resources, unknown blocks and structured content', () => {
    const doc = formatToolResult('fixture', 'echo', { text: 'hi' }, {
      content: [
        { type: 'text', text: 'plain words' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'resource_link', uri: 'file:///tmp/report.txt', name: 'report [draft]' },
        { type: 'resource', resource: { uri: 'mem://note', text: 'embedded text' } },
        { type: 'something-new', value: 1 },
      ],
      structuredContent: { total: 3 },
    });
    assert.match(doc, /^# echo on fixture\n\nThe tool returned a result\./);
    assert.match(doc, /## Arguments\n\n```json\n\{\n {2}"text": "hi"\n\}\n```/);
    assert.match(doc, /```\nplain words\n```/);
    assert.match(doc, /Image \(image\/png, 3 bytes\):\n\n!\[image\]\(data:image\/png;base64,AAAA\)/);
    assert.match(doc, /Resource link: \[report draft\]\(<file:\/\/\/tmp\/report\.txt>\)/, 'brackets in the name cannot break the link');
    assert.match(doc, /Embedded resource <mem:\/\/note>:\n\n```\nembedded text\n```/);
    assert.match(doc, /"type": "something-new"/);
    assert.match(doc, /## Structured content\n\n```json\n\{\n {2}"total": 3\n\}\n```/);
  });

  it('marks an error result as one', () => {
    assert.match(formatToolResult('s', 't', {}, { content: [{ type: 'text', text: 'boom' }], isError: true }), /\*\*The tool reported an error\.\*\*/);
  });

  it('a task picked up again after a reload has no arguments kept: said so, not shown as empty', () => {
    const doc = formatToolResult('trips', 'Plan a Trip', undefined, { content: [{ type: 'text', text: 'booked' }] });
    assert.match(doc, /## Arguments\n\nNot kept: the task was picked up again after a reload of the window, and its arguments are never stored\./);
    assert.doesNotMatch(doc, /```json\n(undefined|\{\})/);
  });

  it('server text cannot close its fence and become Markdown', () => {
    const hostile = 'before\n```\n# injected heading\n```';
    const doc = formatToolResult('s', 't', {}, { content: [{ type: 'text', text: hostile }] });
    assert.ok(doc.includes(`\`\`\`\`\n${hostile}\n\`\`\`\``), 'fenced with more backticks than the text holds');
  });
});

describe('tool arguments from an input schema', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      count: { type: 'integer', default: 2 },
      ratio: { type: 'number' },
      dry: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      nested: { type: 'object', properties: { deep: { type: 'string', default: 'x' } } },
      anything: {},
    },
  };

  it('a skeleton to edit by hand: defaults where given, empty values of the right type elsewhere', () => {
    assert.deepEqual(argumentSkeleton(schema), { name: '', count: 2, ratio: 0, dry: false, tags: [], nested: { deep: 'x' }, anything: null });
    assert.equal(argumentSkeleton(null), null);
  });

  it('the declared defaults, and call-all arguments that keep only what the tool knows', () => {
    assert.deepEqual(schemaDefaults(schema), { count: 2 });
    assert.deepEqual(argumentsFor(schema, { name: 'n', unknown: 1 }), { count: 2, name: 'n' });
    assert.deepEqual(schemaDefaults('not a schema'), {});
  });
});
