import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readClientKey, readSecretFile } from '../../src/cli/client-key';

describe("the runner's client key and ID token files", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'eh-client-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const keyFile = (name: string, pem: string): string => {
    const path = join(dir, name);
    writeFileSync(path, pem);
    return path;
  };

  it('signs with the algorithm the key is for, taking a key in PKCS#8 or its older wrapping', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    assert.equal(readClientKey(keyFile('p256.pem', ec.export({ format: 'pem', type: 'pkcs8' }).toString())).algorithm, 'ES256');
    const sec1 = readClientKey(keyFile('sec1.pem', ec.export({ format: 'pem', type: 'sec1' }).toString()));
    assert.equal(sec1.algorithm, 'ES256');
    assert.match(sec1.pem, /^-----BEGIN PRIVATE KEY-----/, 'handed on as PKCS#8, the one form the SDK imports');
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.equal(readClientKey(keyFile('p384.pem', p384)).algorithm, 'ES384');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    assert.equal(readClientKey(keyFile('rsa.pem', rsa)).algorithm, 'RS256');
  });

  it('refuses what it cannot sign with, or read, by name and without printing the file', () => {
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.throws(() => readClientKey(keyFile('ed.pem', ed)), /is a ed25519 key; client assertions are signed with EC \(P-256, P-384, P-521\) or RSA keys/);
    const notKey = keyFile('not.pem', 'secret-looking text');
    assert.throws(() => readClientKey(notKey), (error: Error) => /is not a private key in PEM form/.test(error.message) && !error.message.includes('secret-looking'));
    assert.throws(() => readSecretFile(join(dir, 'missing'), '--id-token'), /cannot read --id-token .*missing/);
    assert.throws(() => readSecretFile(keyFile('empty', '\n'), '--id-token'), /cannot read --id-token .*empty: it is empty/);
  });
});
