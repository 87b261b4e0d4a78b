/**
 * Every client scenario of the official MCP conformance suite, run against our runner
 * (`elicitation-host call-all --browser fetch`, with the client ID, secret, key, metadata URL
 * or ID token a scenario gives): connecting, tool calls, form defaults, SSE resumption, and
 * authorization: discovery in every variant, client ID metadata documents, dynamic and
 * pre-registration, each token endpoint authentication, scope selection, step-up and its
 * retry limit, the 2025-03-26 fallbacks, refresh scopes, the client credentials grant with a
 * secret or a signed assertion, and enterprise-managed (cross-app) access.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { type Conformance, CONFORMANCE_VERSION, listClientScenarios, provisionConformance, runClientScenario } from '../support/conformance';

const SCENARIOS = [
  // The suite's client scenarios for 2025-11-25: the four without authorization...
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  // ...and its "auth" ones.
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  // The 2025-03-26 back-compat ones.
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  // Drafts.
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  // Extensions: client credentials (a secret, or a key: private_key_jwt), enterprise-managed access.
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
];

describe(`the MCP conformance suite's client scenarios, through the runner (@modelcontextprotocol/conformance ${CONFORMANCE_VERSION})`, function () {
  this.timeout(60_000);
  let suite: Conformance;
  const client = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(__dirname, '..', 'conformance', 'client.mjs'))}`;

  before(async function () {
    // The first run installs the suite and Node 22 from the npm registry.
    this.timeout(10 * 60_000);
    suite = await provisionConformance();
  });

  it('runs every client scenario the suite has', async () => {
    assert.deepEqual([...SCENARIOS].sort(), (await listClientScenarios(suite)).sort());
  });

  for (const scenario of SCENARIOS) {
    it(scenario, async () => {
      const run = await runClientScenario(suite, scenario, client);
      assert.ok(run.passed, `${scenario}: ${run.summary ?? 'no summary'} (exit code ${run.exitCode})\n${run.output.slice(-4000)}`);
    });
  }
});
