import { strict as assert } from 'node:assert';
import { vsCodeAtLeast } from '../../src/ui/vscode-version';

describe("VS Code's version against a least one", () => {
  it('compares major, then minor; a patch or a suffix does not count', () => {
    assert.equal(vsCodeAtLeast('1.103.2', 1, 104), false);
    assert.equal(vsCodeAtLeast('1.104.0', 1, 104), true);
    assert.equal(vsCodeAtLeast('1.139.1-insider', 1, 139), true);
    assert.equal(vsCodeAtLeast('1.138.9', 1, 139), false);
    assert.equal(vsCodeAtLeast('2.0.0', 1, 139), true);
  });
});
