/**
 * Stop on a turn: ACP asks the client to mark the turn's tool calls that are not finished as
 * cancelled as soon as it sends `session/cancel` (the agent need not), and still to take the
 * updates the agent sends after.
 */
import { strict as assert } from 'node:assert';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { SessionUpdates } from '../../src/acp/session-events';

const call = (toolCallId: string, status: 'pending' | 'in_progress' | 'completed'): SessionUpdate => ({ sessionUpdate: 'tool_call', toolCallId, title: `call ${toolCallId}`, kind: 'execute', status });

describe("a turn's tool calls when the person stops it", () => {
  it("marks the turn's unfinished calls cancelled, not those finished or of an earlier turn, and takes the agent's later word", () => {
    const updates = new SessionUpdates((id) => ({ id, name: id }));
    updates.startTurn();
    updates.read(call('earlier', 'pending'));
    updates.startTurn();
    updates.read(call('a', 'pending'));
    updates.read(call('b', 'in_progress'));
    updates.read(call('c', 'completed'));

    const changed = updates.cancelTurn();
    assert.deepEqual(changed.map((c) => [c.id, c.status]), [['a', 'cancelled'], ['b', 'cancelled']]);
    assert.equal(updates.toolCall('c')?.status, 'completed');
    assert.equal(updates.toolCall('earlier')?.status, 'pending', "another turn's call is not this Stop's");
    assert.deepEqual(updates.cancelTurn(), [], 'a second Stop changes nothing');

    // The agent says how it ended after all: that applies; an update without a status keeps "cancelled".
    const later = updates.read({ sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'failed' });
    assert.equal(later?.type === 'tool-call' && later.toolCall.status, 'failed');
    const noStatus = updates.read({ sessionUpdate: 'tool_call_update', toolCallId: 'a', title: 'renamed' });
    assert.equal(noStatus?.type === 'tool-call' && noStatus.toolCall.status, 'cancelled');
  });
});
