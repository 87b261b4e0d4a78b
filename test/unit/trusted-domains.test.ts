import { strict as assert } from 'node:assert';
import { parse } from 'jsonc-parser';
import { originOf, withTrustedOrigin } from '../../src/ui/links/trusted-domains';

const DOCUMENT = `// Links matching one or more entries in the list below can be opened without link protection.
// By default, VS Code trusts "localhost" as well as the following domains:
// - "https://open-vsx.org"
[
  "https://example.org"
]
`;

describe("lending a link's origin to VS Code's trusted sites", () => {
  it('the origin is scheme, host and port only: nothing wider, and only for web links', () => {
    assert.equal(originOf('http://127.0.0.2:4312/review/7?redirect_uri=https%3A%2F%2Fx#top'), 'http://127.0.0.2:4312');
    assert.equal(originOf('https://user:pw@bank.example.com.evil.example/login'), 'https://bank.example.com.evil.example');
    assert.equal(originOf('https://xn--pple-43d.com/a'), 'https://xn--pple-43d.com');
    assert.equal(originOf('javascript:alert(1)'), undefined);
    assert.equal(originOf('not a url'), undefined);
  });

  it("adds the origin to the document's list, keeping its entries", () => {
    const lent = withTrustedOrigin(DOCUMENT, 'http://127.0.0.2:4312');
    assert.ok(lent);
    assert.deepEqual(parse(lent), ['https://example.org', 'http://127.0.0.2:4312']);
    assert.deepEqual(parse(withTrustedOrigin('[]', 'https://a.example')!), ['https://a.example']);
  });

  it('leaves the document alone when the origin is there already, everything is trusted, or it is not a list of sites', () => {
    assert.equal(withTrustedOrigin(DOCUMENT, 'https://example.org'), undefined);
    assert.equal(withTrustedOrigin('["*"]', 'https://a.example'), undefined);
    assert.equal(withTrustedOrigin('{ "a": 1 }', 'https://a.example'), undefined);
    assert.equal(withTrustedOrigin('[1, 2]', 'https://a.example'), undefined);
    assert.equal(withTrustedOrigin('[ "a", ', 'https://a.example'), undefined);
  });
});
