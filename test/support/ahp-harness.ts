/**
 * The agent host inbox as the product wires it (store, broker with the ajv check, History),
 * a scripted person, and what it logged and told: for the tests against the fixture host
 * (test/fixtures/ahp/fixture-host.ts) and, later, a real VS Code agent host.
 */
import { parseEndpoint } from '../../src/ahp/endpoint';
import { AgentHostInbox, type InboxEvents, type InboxItem, type InboxOptions } from '../../src/ahp/inbox';
import type { AhpLog } from '../../src/ahp/ports';
import { History } from '../../src/elicitation/history';
import { InputStore } from '../../src/elicitation/store';
import { createBroker } from '../../src/mcp/create-broker';
import { ScriptedPrompter, type Step } from './scripted-prompter';

export interface Told {
  readonly asked: InboxItem[];
  readonly answered: Array<{ item: InboxItem; outcome: string }>;
  readonly withdrawn: Array<{ item: InboxItem; reason: string }>;
  readonly refused: Array<{ item?: InboxItem; reason: string }>;
  readonly statuses: string[];
}

export class AhpRig {
  readonly store = new InputStore();
  readonly prompter: ScriptedPrompter;
  readonly broker;
  readonly history = new History();
  readonly warnings: string[] = [];
  readonly told: Told = { asked: [], answered: [], withdrawn: [], refused: [], statuses: [] };
  readonly log: AhpLog = { info: () => undefined, warn: (m) => this.warnings.push(m) };
  private readonly inboxes: AgentHostInbox[] = [];
  private readonly stopFollowing: () => void;

  constructor(steps: Step[] = [], fallback?: Step) {
    this.prompter = new ScriptedPrompter(steps, fallback);
    this.broker = createBroker({ store: this.store, prompter: this.prompter });
    this.stopFollowing = this.history.follow(this.store);
  }

  readonly events: InboxEvents = {
    asked: (item) => this.told.asked.push(item),
    answered: (item, outcome) => this.told.answered.push({ item, outcome }),
    withdrawn: (item, reason) => this.told.withdrawn.push({ item, reason }),
    refused: (item, reason) => this.told.refused.push({ ...(item && { item }), reason }),
    status: (status) => this.told.statuses.push(status),
  };

  /** An inbox of the host at `address` (a URL or socket path) with this token. */
  async open(address: string, token: string | undefined, options: Partial<InboxOptions> = {}): Promise<AgentHostInbox> {
    const inbox = await AgentHostInbox.open({
      endpoint: parseEndpoint(address).endpoint,
      ...(token !== undefined && { token }),
      clientInfo: { name: 'elicitation-host-tests', version: '0' },
      log: this.log,
      broker: this.broker,
      store: this.store,
      events: this.events,
      pingIntervalMs: 0,
      reconnectDelaysMs: [20, 50, 100, 200, 400],
      ...options,
    });
    this.inboxes.push(inbox);
    return inbox;
  }

  close(): void {
    for (const inbox of this.inboxes.splice(0)) inbox.close();
    this.stopFollowing();
  }
}
