import { strict as assert } from 'node:assert';
import { childEnvironment, GATEWAY_VARIABLES } from '../../src/base/child-environment';
import { TOKEN_VARIABLE, URL_VARIABLE } from '../../src/gateway/contract';

describe('childEnvironment: what a program we start inherits', () => {
  it('leaves out the gateway token and address, in any case, and unset values; keeps the rest', () => {
    const env = childEnvironment({ PATH: '/bin', HOME: '/home/me', [TOKEN_VARIABLE]: 'secret', [URL_VARIABLE]: 'http://127.0.0.1:9', Elicitation_Host_MCP_Token: 'secret', EMPTY: '', UNSET: undefined });
    assert.deepEqual(env, { PATH: '/bin', HOME: '/home/me', EMPTY: '' });
  });

  it('names the variables the gateway contract publishes', () => {
    assert.deepEqual([...GATEWAY_VARIABLES].sort(), [TOKEN_VARIABLE, URL_VARIABLE].sort());
  });
});
