/**
 * The one reader of `elicitation/create`'s params (src/elicitation/elicit-params.ts), as each
 * edge calls it: an MCP server's request, the gateway's `/ask` body, an ACP agent's request.
 * Each names the field at fault its own way and throws its own error; only ACP's rules are
 * stricter (its `mode` and a link's `elicitationId` are required).
 */
import { strict as assert } from 'node:assert';
import { type ParamsEdge, readElicitParams } from '../../src/elicitation/elicit-params';

class EdgeError extends Error {}
const edge = (prefix: string, strict = false): ParamsEdge => ({ prefix, strict, error: (message) => new EdgeError(message) });
const MCP = edge('params.');
const GATEWAY = edge('question.');
const ACP = edge('', true);

function refusal(raw: unknown, on: ParamsEdge): string {
  try {
    readElicitParams(raw, on);
  } catch (error) {
    assert.ok(error instanceof EdgeError, `the edge's own error, not ${String(error)}`);
    return error.message;
  }
  assert.fail(`${JSON.stringify(raw)} was taken`);
}

describe("one reader of elicitation/create's params, every edge its own error", () => {
  it('reads a form and a link; mode may be left out but for ACP', () => {
    const schema = { type: 'object', properties: {} };
    assert.deepEqual(readElicitParams({ message: 'm', requestedSchema: schema }, MCP), { mode: 'form', message: 'm', requestedSchema: schema });
    assert.deepEqual(readElicitParams({ mode: null, message: 'm', requestedSchema: schema }, GATEWAY), { mode: 'form', message: 'm', requestedSchema: schema });
    assert.deepEqual(readElicitParams({ mode: 'url', message: 'm', url: 'https://x', elicitationId: 'e', extra: 1 }, ACP), { mode: 'url', message: 'm', url: 'https://x', elicitationId: 'e' });
    assert.deepEqual(readElicitParams({ mode: 'url', message: 'm', url: 'https://x' }, MCP), { mode: 'url', message: 'm', url: 'https://x' });
    assert.match(refusal({ message: 'm', requestedSchema: schema }, ACP), /^mode must be "form" or "url" \(the modes this client offers\), not absent$/);
  });

  it('names the field at fault as each edge names it', () => {
    assert.equal(refusal('x', MCP), 'params must be an object');
    assert.equal(refusal({}, MCP), 'params.message must be a string');
    assert.equal(refusal({ message: 'm' }, GATEWAY), 'question.requestedSchema must be an object in form mode');
    assert.equal(refusal({ mode: 'form', message: 'm', requestedSchema: 'a string' }, ACP), 'requestedSchema must be an object in form mode');
    assert.equal(refusal({ mode: 'url', message: 'm' }, GATEWAY), 'question.url must be a string in url mode');
    assert.equal(refusal({ mode: 'url', message: 'm', url: 'https://x', elicitationId: 2 }, MCP), 'params.elicitationId must be a string');
    assert.equal(refusal({ mode: 'url', message: 'm', url: 'https://x' }, ACP), 'elicitationId must be a string in url mode');
    assert.equal(refusal({ mode: 'ask', message: 'm' }, MCP), 'params.mode must be "form" or "url" (the modes this client offers), not "ask"');
  });
});
