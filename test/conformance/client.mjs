#!/usr/bin/env node
// The client the MCP conformance suite runs for each scenario (npm run conformance): our
// runner, nothing else. The suite appends the server URL and says which scenario in
// MCP_CONFORMANCE_SCENARIO, with what it needs in MCP_CONFORMANCE_CONTEXT (a pre-registered
// client's credentials); the runner gets them as its own options, as a person would pass them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const options = ['--browser', 'fetch', '--accept-defaults'];
if (context.client_id) options.push('--client-id', context.client_id);
if (context.client_secret) options.push('--client-secret', context.client_secret);
// The suite's stand-in for a client ID metadata document's address.
if (scenario === 'auth/basic-cimd') options.push('--client-metadata-url', 'https://conformance-test.local/client-metadata.json');
// A key and an ID token reach the runner as files, as a person keeps them.
const secrets = mkdtempSync(join(tmpdir(), 'eh-conformance-secrets-'));
const secretFile = (name, text) => {
  const path = join(secrets, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};
if (context.private_key_pem) options.push('--client-key', secretFile('client-key.pem', context.private_key_pem));
if (context.idp_id_token) {
  options.push('--id-token', secretFile('id-token', context.idp_id_token), '--idp-token-endpoint', context.idp_token_endpoint, '--idp-client-id', context.idp_client_id);
}
const run = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'call-all', ...options, url], { stdio: 'inherit' });
rmSync(secrets, { recursive: true, force: true });
process.exit(run.status ?? 1);
