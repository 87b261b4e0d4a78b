/**
 * The pending count stands out when a question arrives while the window is not focused,
 * and only until the window is focused again (or nothing waits). The UI scenario
 * (ui-extension-api.test.ts) shows it in the workbench, its page told it lost the focus;
 * the cases of the rule are held here.
 */
import { strict as assert } from 'node:assert';
import { Attention } from '../../src/ui/views/attention';

describe('the pending count stands out for a person away from the window', () => {
  it('a question that arrives while the window is focused does not stand out', () => {
    const attention = new Attention();
    assert.equal(attention.update(['a'], true), false);
    assert.equal(attention.update(['a', 'b'], true), false);
  });

  it('one that arrives while it is not focused stands out until the window is focused again, whatever else changes meanwhile', () => {
    const attention = new Attention();
    assert.equal(attention.update([], false), false, 'nothing waits');
    assert.equal(attention.update(['a'], false), true, 'arrived while away');
    assert.equal(attention.update(['a'], false), true, 'still away');
    assert.equal(attention.update(['a', 'b'], false), true, 'another arrives');
    assert.equal(attention.update(['b'], false), true, 'one is answered elsewhere (an agent withdrew it): the other is still unseen');
    assert.equal(attention.update(['b'], true), false, 'the window is focused');
    assert.equal(attention.update(['b'], false), false, 'leaving again is not an arrival');
  });

  it('a question seen while focused does not stand out later; one arriving after the person left does', () => {
    const attention = new Attention();
    assert.equal(attention.update(['a'], true), false);
    assert.equal(attention.update(['a'], false), false);
    assert.equal(attention.update(['a', 'b'], false), true);
  });

  it('nothing waiting: nothing stands out, and the next arrival while away stands out again', () => {
    const attention = new Attention();
    assert.equal(attention.update(['a'], false), true);
    assert.equal(attention.update([], false), false);
    assert.equal(attention.update(['c'], false), true);
  });
});
