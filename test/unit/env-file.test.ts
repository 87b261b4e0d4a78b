import { strict as assert } from 'node:assert';
import { parseEnvFile } from '../../src/mcp/config/variables';

describe('env files (envFile), read as dotenv reads them', () => {
  it('comments, export prefixes, spaces around "=", empty values, Windows line ends', () => {
    assert.deepEqual(parseEnvFile('# a comment\nA=1\r\nexport B = two words  \n  C =\nnot a line\nD=x # trailing comment\n'), {
      A: '1', B: 'two words', C: '', D: 'x',
    });
  });

  it('single, double and backtick quotes; "#" inside quotes is part of the value', () => {
    assert.deepEqual(parseEnvFile(`S='it is # here'\nD="a # b"\nB=\`say "hi" and 'bye'\`\nJSON={"a":1}`), {
      S: 'it is # here', D: 'a # b', B: `say "hi" and 'bye'`, JSON: '{"a":1}',
    });
  });

  it('escapes: \\n and \\r in double quotes become line breaks; single quotes keep them as written', () => {
    assert.deepEqual(parseEnvFile(`D="one\\ntwo\\rthree"\nS='one\\ntwo'`), { D: 'one\ntwo\rthree', S: 'one\\ntwo' });
  });

  it('values over several lines inside quotes', () => {
    const pem = '-----BEGIN KEY-----\nMIIB\nAAAA\n-----END KEY-----';
    assert.deepEqual(parseEnvFile(`KEY="${pem}"\nAFTER=yes\nMULTI='a\nb'`), { KEY: pem, AFTER: 'yes', MULTI: 'a\nb' });
  });

  it('a later line wins', () => {
    assert.deepEqual(parseEnvFile('A=1\nA=2'), { A: '2' });
  });
});
