/**
 * The runner's files that hold secrets: a client's private key (PKCS#8 PEM) and an ID token.
 * The key's type says how its assertions are signed; what the SDK cannot sign with is refused
 * here, by name, before any request. Neither file's content is ever printed.
 */
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The JWS algorithm for each key the SDK signs client assertions with (RFC 7518). */
const EC_ALGORITHMS: Record<string, string> = { 'prime256v1': 'ES256', 'P-256': 'ES256', 'secp384r1': 'ES384', 'P-384': 'ES384', 'secp521r1': 'ES512', 'P-521': 'ES512' };

export function readSecretFile(path: string, option: string): string {
  try {
    const text = readFileSync(path, 'utf8').trim();
    if (!text) throw new Error('it is empty');
    return text;
  } catch (error) {
    throw new Error(`cannot read ${option} ${path}: ${(error as Error).message}`, { cause: error });
  }
}

export function readClientKey(path: string): { pem: string; algorithm: string } {
  const pem = readSecretFile(path, '--client-key');
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(`--client-key ${path} is not a private key in PEM form`);
  }
  // The SDK imports PKCS#8 only: a key in another wrapping is re-exported as one.
  const pkcs8 = key.export({ format: 'pem', type: 'pkcs8' }).toString();
  if (key.asymmetricKeyType === 'rsa') return { pem: pkcs8, algorithm: 'RS256' };
  if (key.asymmetricKeyType === 'rsa-pss') return { pem: pkcs8, algorithm: 'PS256' };
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const algorithm = key.asymmetricKeyType === 'ec' && curve !== undefined ? EC_ALGORITHMS[curve] : undefined;
  if (!algorithm) throw new Error(`--client-key ${path} is a ${key.asymmetricKeyType}${curve ? ` (${curve})` : ''} key; client assertions are signed with EC (P-256, P-384, P-521) or RSA keys`);
  return { pem: pkcs8, algorithm };
}
