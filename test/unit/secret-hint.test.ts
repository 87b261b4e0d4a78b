/**
 * Which fields count as secret: the server's own word (`writeOnly`, `format: password`),
 * else the field's key or title read as words (camelCase, snake_case and kebab-case split),
 * so one-time codes, recovery phrases and live keys are masked like passwords.
 */
import { strict as assert } from 'node:assert';
import { parseRequestedSchemaOrThrow } from '../../src/elicitation/schema';

function secretFlags(properties: Record<string, Record<string, unknown>>): Record<string, boolean> {
  const form = parseRequestedSchemaOrThrow({ type: 'object', properties });
  return Object.fromEntries(form.questions.map((q) => [q.id, q.looksSecret]));
}

const titled = (titles: readonly string[]): Record<string, Record<string, unknown>> => Object.fromEntries(titles.map((title, i) => [`f${i}`, { type: 'string', title }]));
const keyed = (keys: readonly string[]): Record<string, Record<string, unknown>> => Object.fromEntries(keys.map((key) => [key, { type: 'string' }]));
const byName = (names: readonly string[], flags: Record<string, boolean>, ids: readonly string[]): string[] => names.filter((_, i) => !flags[ids[i]]);

describe('which fields look secret', () => {
  it('a writeOnly field is secret whatever its name, as JSON Schema means it (never read back); writeOnly false is not', () => {
    assert.deepEqual(secretFlags({ value: { type: 'string', writeOnly: true }, answer: { type: 'integer', writeOnly: true }, shown: { type: 'string', writeOnly: false } }), { value: true, answer: true, shown: false });
  });

  it('titles of one-time codes, recovery phrases and live keys', () => {
    const titles = [
      'One-time code',
      'One time password',
      'Recovery phrase',
      'Seed phrase',
      'Mnemonic',
      'Stripe live key',
      'Secret access key',
      'Signing key',
      'Verification code',
      'SMS code',
      '2FA code',
      'MFA code',
      'TOTP',
      'Authenticator code',
      'Backup codes',
      'Recovery key',
      'Card number',
      'CVC',
      'Security code',
      'Bearer',
      'Session cookie',
      'Passphrase',
      'Passcode',
      'Client secret',
      'API key',
      'Personal access token',
      'Credentials',
      'PIN',
    ];
    const flags = secretFlags(titled(titles));
    assert.deepEqual(byName(titles, flags, titles.map((_, i) => `f${i}`)), [], 'not taken for secret');
  });

  it('keys in any case style', () => {
    const keys = ['otp', 'smsOtp', 'totpCode', 'one_time_code', 'oneTimeCode', 'recovery-phrase', 'seedPhrase', 'stripeLiveKey', 'STRIPE_LIVE_KEY', 'x-api-key', 'apiKey', 'APIKey', 'apikey', 'userPin', 'cardNumber', 'client_secret', 'accessKeyId', 'privateKey', 'pwd', 'passwd', 'mfaCode', 'verificationCode', 'jwt'];
    const flags = secretFlags(keyed(keys));
    assert.deepEqual(byName(keys, flags, keys), [], 'not taken for secret');
  });

  it('ordinary fields are not, nor words that merely contain a hint', () => {
    const titles = ['Name', 'Party size', 'Opinion', 'Compass heading', 'Passenger count', 'Spinner style', 'Keyboard layout', 'Sort key', 'Primary key', 'Country code', 'Postal code', 'Zip code', 'Language code', 'Description', 'Bypass cache'];
    const flags = secretFlags(titled(titles));
    assert.deepEqual(titles.filter((_, i) => flags[`f${i}`]), [], 'taken for secret');
  });
});
