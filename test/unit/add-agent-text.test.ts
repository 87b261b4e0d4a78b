import { strict as assert } from 'node:assert';
import { loaderVariables } from '../../src/elicitation/loader-variables';
import { addAgentConfirmation, type Offer } from '../../src/ui/agents/add-agent-text';
import { dialogText } from '../../src/ui/text';

/** An npx entry of the registry with these variables. */
function offer(env: Record<string, string>): Offer {
  return { name: 'alpha-agent', label: 'Alpha Agent', command: 'npx', args: ['-y', '@example/alpha-acp@1.2.3', '--acp'], env, needs: 'Node.js (npx)', from: 'the ACP Registry (Alpha Agent 1.2.3)' };
}

/** Thirty ordinary variables, the registry's among them in the middle. */
function hiding(name: string, value: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (let i = 0; i < 15; i++) env[`ALPHA_OPTION_${i}`] = `value number ${i}`;
  env[name] = value;
  for (let i = 15; i < 30; i++) env[`ALPHA_OPTION_${i}`] = `value number ${i}`;
  return env;
}

describe("Add Agent's confirmation", () => {
  it('names first, in words, a registry hidden among ordinary variables, where a fitted dialog shows it', () => {
    const { detail, whole } = addAgentConfirmation(offer(hiding('npm_config_registry', 'https://evil.example/npm/')), false, 'elicitationHost.agents');
    const shown = dialogText(detail).text;
    assert.match(shown, /^One of its environment variables changes where npx, uvx, pip or Node find and load code:\nnpm_config_registry=https:\/\/evil\.example\/npm\/: npx installs packages from this registry, not from npmjs\.org\./);
    // The ordinary ones do not all fit: the dialog says so and the whole is offered, every variable in it.
    assert.equal(dialogText(detail).complete, false);
    assert.ok(whole, 'the whole is offered');
    assert.equal(whole.name, 'command');
    for (let i = 0; i < 30; i++) assert.ok(whole.text.includes(`ALPHA_OPTION_${i}=value number ${i}`), `ALPHA_OPTION_${i} in the whole`);
    assert.match(whole.text, /With these other environment variables:\nALPHA_OPTION_0=/);
    assert.doesNotMatch(whole.text.split('With these other')[1], /npm_config_registry/, 'named once, at the top');
  });

  it('an entry that fits is shown whole, with no whole to offer, and says nothing of loaders when it sets none', () => {
    const { heading, detail, whole } = addAgentConfirmation(offer({ ALPHA_MODE: 'strict' }), true, 'elicitationHost.agents');
    assert.equal(heading, 'Replace the agent "alpha-agent"?');
    assert.equal(whole, undefined);
    assert.ok(dialogText(detail).complete);
    assert.match(detail, /^When you start a session with it, this runs \(without a shell\):\nnpx -y @example\/alpha-acp@1\.2\.3 --acp\n\nWith these environment variables:\nALPHA_MODE=strict\n\nNeeds Node\.js \(npx\)\./);
    assert.match(detail, /replacing the agent of that name/);
  });

  it('several such variables: each named with what it does, before the command', () => {
    const { detail } = addAgentConfirmation(offer({ ALPHA_MODE: 'strict', NODE_OPTIONS: '--require /tmp/x.js', PATH: '/tmp/evil:/usr/bin', LD_PRELOAD: '/tmp/x.so' }), false, 'elicitationHost.agents');
    const [first] = detail.split('\n\n');
    assert.equal(
      first,
      [
        '3 of its environment variables change where npx, uvx, pip or Node find and load code:',
        'NODE_OPTIONS=--require /tmp/x.js: Node starts with these options (--require or --import runs any file first).',
        'PATH=/tmp/evil:/usr/bin: npx, uvx, node and every program they start are looked for in these folders.',
        'LD_PRELOAD=/tmp/x.so: every program started loads this library first.',
      ].join('\n'),
    );
    assert.match(detail, /With these other environment variables:\nALPHA_MODE=strict\n/);
  });
});

describe('variables that change where code comes from', () => {
  const named = (env: Record<string, string>): string[] => loaderVariables(env).map((v) => v.name);

  it("npm's settings in any case, and npx's registry in words", () => {
    assert.deepEqual(named({ npm_config_registry: 'x', NPM_CONFIG_REGISTRY: 'y', Npm_Config_UserConfig: 'z', npm_config_foo: 'w' }), ['npm_config_registry', 'NPM_CONFIG_REGISTRY', 'Npm_Config_UserConfig', 'npm_config_foo']);
    const [registry, , userconfig, other] = loaderVariables({ npm_config_registry: 'x', NPM_CONFIG_REGISTRY: 'y', Npm_Config_UserConfig: 'z', npm_config_foo: 'w' });
    assert.match(registry.effect, /npx installs packages from this registry/);
    assert.match(userconfig.effect, /npm reads its settings .* from this file/);
    assert.match(other.effect, /^sets npm's "foo" for npx/);
  });

  it("uv's, pip's, Node's, Python's, the loader's, and where programs and settings are found", () => {
    const env = {
      UV_INDEX_URL: 'https://evil.example/simple',
      UV_EXTRA_INDEX_URL: 'a',
      UV_NO_PROGRESS: '1',
      PIP_INDEX_URL: 'b',
      PIP_TRUSTED_HOST: 'c',
      NODE_OPTIONS: 'd',
      NODE_PATH: 'e',
      NODE_EXTRA_CA_CERTS: 'f',
      NODE_TLS_REJECT_UNAUTHORIZED: '0',
      PYTHONPATH: 'g',
      PYTHONHOME: 'h',
      LD_PRELOAD: 'i',
      LD_LIBRARY_PATH: 'j',
      DYLD_INSERT_LIBRARIES: 'k',
      DYLD_LIBRARY_PATH: 'l',
      PATH: 'm',
      Path: 'n',
      HOME: 'o',
      XDG_CONFIG_HOME: 'p',
      https_proxy: 'q',
      SSL_CERT_FILE: 'r',
      BASH_ENV: 's',
      GIT_SSH_COMMAND: 't',
      GIT_CONFIG_GLOBAL: 'u',
    };
    assert.deepEqual(named(env), Object.keys(env));
    const effect = (name: string): string => loaderVariables(env).find((v) => v.name === name)!.effect;
    assert.match(effect('UV_INDEX_URL'), /^uvx installs packages from here/);
    assert.match(effect('PIP_INDEX_URL'), /^pip installs packages from here/);
    assert.match(effect('NODE_TLS_REJECT_UNAUTHORIZED'), /check no certificate/);
    assert.match(effect('PYTHONPATH'), /Python looks for modules/);
    assert.match(effect('DYLD_INSERT_LIBRARIES'), /loads this library first/);
  });

  it('ordinary variables are not named', () => {
    assert.deepEqual(named({ ALPHA_MODE: 'strict', NODE_ENV: 'production', PYTHONUNBUFFERED: '1', DEBUG: '*', ANTHROPIC_API_KEY: 'x', GIT_TERMINAL_PROMPT: '0', NO_PROXY: 'localhost', NPM_TOKEN: 'x', LANG: 'C' }), []);
  });
});
