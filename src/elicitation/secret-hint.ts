/**
 * Whether a field asks for a secret: the one place this is decided, so every surface that
 * hides secrets (the password box, the History, the runner's output) follows the same rule.
 * The server's own word counts first (`writeOnly`: JSON Schema's "never read back", and
 * `format: password`); otherwise the field's key and title are read as words, whatever
 * their case style (`stripeLiveKey`, `one_time_code`, `X-API-Key` all read as words), and
 * matched against names of secrets. Pure.
 *
 * Read as whole words, so "Compass heading" and "Bypass cache" are not passwords; a miss
 * costs a secret kept in clear, a false alarm only a masked answer and a warning, so the
 * list leans wide. The description is not read: it is prose ("we never ask for your
 * password"), and would make ordinary fields secret.
 */

import type { Question } from './model';

/** Names of secrets, matched against lower-case words separated by single spaces. */
const SECRET_WORDS = new RegExp(
  [
    String.raw`\bpass(?:words?|wd|phrases?|codes?)?\b`,
    String.raw`\bpwd\b`,
    String.raw`\bsecrets?\b`,
    // As before this file: any word holding "token" (access_token, tokenValue).
    'token',
    String.raw`\bcredentials?\b`,
    String.raw`\b(?:api|private|priv|secret|access|live|signing|encryption|decryption|master|license|licence|ssh|gpg|pgp|deploy|session|recovery|backup|wallet) ?keys?\b`,
    String.raw`\b(?:pin|pins|cvv|cvc|csc|ssn|otp|totp|hotp|2fa|mfa|jwt|bearer|mnemonic)\b`,
    String.raw`\bcredit ?card\b`,
    String.raw`\bcard ?number\b`,
    String.raw`\bone ?time (?:code|codes|password|passcode|pin|key|token)\b`,
    String.raw`\b(?:verification|auth|authentication|authenticator|authorization|security|sms|login|sign in|access|backup|recovery|otp|totp|mfa|2fa) ?codes?\b`,
    String.raw`\b(?:recovery|seed|backup|secret|wallet) ?(?:phrase|phrases|words|seed)\b`,
    String.raw`\bsession (?:id|cookie)\b`,
  ].join('|'),
);

/** `stripeLiveKey`, `STRIPE_LIVE_KEY`, `X-API-Key` → `stripe live key`, `stripe live key`, `x api key`. */
export function asWords(text: string): string {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    // An acronym or a number before a word: `APIKey`, `sha256Hash` (but `2FA` stays one word).
    .replace(/(\p{Lu}|\p{N})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
}

/** What the schema says of one field, as far as secrecy goes. */
export interface SecretClues {
  readonly key: string;
  readonly title?: string;
  readonly writeOnly?: unknown;
  readonly format?: unknown;
}

export function looksSecret({ key, title, writeOnly, format }: SecretClues): boolean {
  if (writeOnly === true || format === 'password') return true;
  return SECRET_WORDS.test(asWords(key)) || (title !== undefined && SECRET_WORDS.test(asWords(title)));
}

/**
 * A secret field whose answer is typed (text, a number): its value is hidden as it is typed
 * and wherever it would be shown again. A choice's options are the server's own words, and
 * a yes or no is no secret to hide in other text (its answer is still masked).
 */
export function isSecretField(question: Question): boolean {
  return question.looksSecret && (question.kind === 'text' || question.kind === 'number' || question.kind === 'integer');
}
