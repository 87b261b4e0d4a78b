/**
 * The room `src/ui/gateway/`: agents reaching our servers: this file (the gateway, run in
 * VS Code), `gateway-loader` and `gateway-bundle` (the gateway's lazily loaded bundle),
 * `gateway-token` (its secret), `agent-provider` and `serve-choices` (VS Code's own agent),
 * `connect-agent` (Connect an Agent…) and `cli-on-path` (`elicitation-host` on terminals'
 * PATH, so what runs there reaches the gateway).
 *
 * Runs the gateway inside VS Code: on a port kept per workspace, checked against the
 * workspace's token, with integrated terminals told where it is and how to authenticate
 * (ELICITATION_HOST_MCP_URL, ELICITATION_HOST_MCP_TOKEN). Extensions that run MCP clients in
 * this extension host (Roo Code, Continue) read the token from its environment, so it is
 * set there too.
 */
import * as vscode from 'vscode';
import type { ResultSink } from '../../elicitation/history';
import type { Broker } from '../../elicitation/broker';
import type { InputStore } from '../../elicitation/store';
import type { Gateway, UpstreamSource } from '../../gateway/bundle';
import { loadGateway } from './gateway-loader';
import type { GatewayToken } from './gateway-token';
import type { Timings } from '../../mcp/ports';

const PORT_KEY = 'gatewayPort';

export interface GatewayHostDeps {
  readonly upstreams: UpstreamSource;
  readonly token: GatewayToken;
  readonly broker: Broker;
  readonly store: InputStore;
  readonly version: string;
  /** Workspace state: the port, so agents' configurations stay valid across sessions. */
  readonly state: vscode.Memento;
  readonly terminalEnv: vscode.GlobalEnvironmentVariableCollection;
  readonly log: vscode.LogOutputChannel;
  /** Each forwarded tool call's result (the History keeps it with the call's questions). */
  readonly onToolResult?: ResultSink;
  /** Timings for `npm run bench`: set only in the benchmark build. */
  readonly timings?: Timings;
}

export class GatewayHost implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The served set, the port or the token changed. */
  readonly onDidChange = this.changed.event;
  private starting: Promise<Gateway> | undefined;
  private gateway: Gateway | undefined;
  private disposed = false;

  constructor(private readonly deps: GatewayHostDeps) {
    // The token must not be written to disk with the collection.
    deps.terminalEnv.persistent = false;
    deps.terminalEnv.description = 'Where agents started here reach the Elicitation Host gateway, and its token.';
  }

  /** Starts the gateway once; later calls get the same one. */
  start(): Promise<Gateway> {
    this.starting ??= this.listen().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    });
    return this.starting;
  }

  /** The running gateway, if it has started. */
  get running(): Gateway | undefined {
    return this.gateway;
  }

  /** A benchmark stamp (the benchmark build only): VS Code's client reaching our provider, say. */
  stamp(event: string): void {
    this.deps.timings?.({ event, at: Date.now() });
  }

  /** VS Code's client is about to connect to this path: see Gateway.prepare. */
  prepare(path?: string): void {
    this.gateway?.prepare(path);
  }

  get token(): string {
    return this.deps.token.current;
  }

  private async listen(): Promise<Gateway> {
    // Loading the bundle takes a moment: not on the activation's own turn.
    await new Promise((resolve) => setImmediate(resolve));
    this.stamp('gatewayStarting');
    const { Gateway } = loadGateway();
    await this.deps.token.load();
    const gateway = await Gateway.start({
      upstreams: this.deps.upstreams,
      token: () => this.deps.token.current,
      port: this.deps.state.get<number>(PORT_KEY) ?? 0,
      broker: this.deps.broker,
      store: this.deps.store,
      version: this.deps.version,
      ...(this.deps.onToolResult && { onToolResult: this.deps.onToolResult }),
      ...(this.deps.timings && { timings: this.deps.timings }),
      log: (message) => this.deps.log.warn(`gateway: ${message}`),
    });
    if (this.disposed) {
      await gateway.close();
      throw new Error('The extension is shutting down.');
    }
    this.gateway = gateway;
    await this.deps.state.update(PORT_KEY, gateway.port);
    gateway.onDidChange.add(() => this.changed.fire());
    this.publish();
    this.stamp('gatewayListening');
    this.deps.log.info(`gateway listening on ${gateway.url} (${gateway.servers().length} server(s))`);
    this.changed.fire();
    return gateway;
  }

  /** A new token: agents must pick it up from a new terminal (or their environment). */
  async rotateToken(): Promise<void> {
    await this.deps.token.rotate();
    this.publish();
    this.changed.fire();
  }

  private publish(): void {
    const { TOKEN_VARIABLE, URL_VARIABLE } = loadGateway();
    const env = this.deps.terminalEnv;
    if (this.gateway) env.replace(URL_VARIABLE, this.gateway.url);
    env.replace(TOKEN_VARIABLE, this.deps.token.current);
    process.env[TOKEN_VARIABLE] = this.deps.token.current;
    if (this.gateway) process.env[URL_VARIABLE] = this.gateway.url;
  }

  dispose(): void {
    this.disposed = true;
    void this.gateway?.close();
    this.changed.dispose();
  }
}
