/**
 * Environment variables that change where a program's code comes from: where npx, uvx and pip
 * install packages from, which certificates their downloads trust, what Node, Python, Perl, Ruby, Java, the shells and the
 * dynamic loader load before the program itself, where programs are looked for, which files
 * npm, pip and uv read their settings from. An agent's entry (the ACP Registry's, or any) that
 * sets `npm_config_registry` among ordinary variables makes npx install from wherever it
 * names; a surface that approves such an entry names these first, each with what it does in
 * words. Names are matched in any case: npm reads `npm_config_*` so, and Windows' variables
 * have no case. Pure.
 */

/** One such variable, as set, and what it does. */
export interface LoaderVariable {
  readonly name: string;
  readonly value: string;
  /** In words: "npx installs packages from this registry". */
  readonly effect: string;
}

interface Rule {
  readonly name: RegExp;
  readonly effect: (value: string, match: RegExpExecArray) => string;
}

const INDEX = 'installs packages from here, not from its usual index';
const SETTINGS_HOMES = 'npm, pip and uv read their settings (.npmrc, pip.conf, uv.toml) from under this folder';

/** npm's settings that matter most, by their name in `npm_config_<name>` (npm reads `_` as `-`). */
const NPM_SETTINGS: Readonly<Record<string, string>> = {
  registry: 'npx installs packages from this registry, not from npmjs.org',
  userconfig: 'npm reads its settings (a registry, tokens, scripts) from this file',
  globalconfig: 'npm reads its settings (a registry, tokens, scripts) from this file',
  cafile: "npx's downloads trust the certificates in this file",
  ca: "npx's downloads trust this certificate",
  'strict-ssl': "npx's downloads are checked against certificates only when this is true",
  'node-options': 'Node starts with these options (--require or --import runs any file first)',
  'script-shell': "npm runs packages' scripts with this program",
  prefix: 'npm installs and runs packages from this folder',
  cache: 'npx takes packages from this cache first',
  'ignore-scripts': "whether packages' install scripts run",
  proxy: "npx's downloads go through this proxy",
  'https-proxy': "npx's downloads go through this proxy",
};

/** First match wins: the specific names before their family. */
const RULES: readonly Rule[] = [
  { name: /^npm_config_(.+)$/i, effect: (_v, m) => NPM_SETTINGS[npmSetting(m[1])] ?? `sets npm's "${npmSetting(m[1])}" for npx (its settings decide where packages come from and what runs)` },
  { name: /^NODE_OPTIONS$/i, effect: () => 'Node starts with these options (--require or --import runs any file first)' },
  { name: /^NODE_PATH$/i, effect: () => 'Node looks for modules in these folders' },
  { name: /^NODE_EXTRA_CA_CERTS$/i, effect: () => "Node's downloads trust the certificates in this file" },
  { name: /^NODE_TLS_REJECT_UNAUTHORIZED$/i, effect: (v) => (v === '0' ? "Node's downloads check no certificate" : "sets whether Node's downloads check certificates") },
  { name: /^NODE_REPL_EXTERNAL_MODULE$/i, effect: () => 'Node loads this module in place of its prompt' },
  { name: /^UV_(?:INDEX|INDEX_URL|DEFAULT_INDEX|EXTRA_INDEX_URL|FIND_LINKS)$/i, effect: () => `uvx ${INDEX}` },
  { name: /^UV_INSECURE_HOST$/i, effect: () => "uvx's downloads from these hosts check no certificate" },
  { name: /^UV_CONFIG_FILE$/i, effect: () => 'uv reads its settings (an index, a Python) from this file' },
  { name: /^UV_PYTHON$/i, effect: () => 'uvx runs packages with this Python' },
  { name: /^UV_\w+$/i, effect: () => 'sets uv for uvx (its settings decide where packages come from and what runs)' },
  { name: /^PIP_(?:INDEX_URL|EXTRA_INDEX_URL|FIND_LINKS)$/i, effect: () => `pip ${INDEX}` },
  { name: /^PIP_TRUSTED_HOST$/i, effect: () => "pip's downloads from these hosts check no certificate" },
  { name: /^PIP_CONFIG_FILE$/i, effect: () => 'pip reads its settings (an index, trusted hosts) from this file' },
  { name: /^PIP_\w+$/i, effect: () => 'sets pip (its settings decide where packages come from and what runs)' },
  { name: /^PYTHONPATH$/i, effect: () => 'Python looks for modules in these folders first' },
  { name: /^PYTHONHOME$/i, effect: () => 'Python loads its standard library from this folder' },
  { name: /^PYTHONUSERBASE$/i, effect: () => "Python loads the user's packages from this folder" },
  { name: /^PYTHONSTARTUP$/i, effect: () => 'Python runs this file when it starts interactively' },
  { name: /^PYTHONPLATLIBDIR$/i, effect: () => 'Python looks for its libraries under this folder name' },
  { name: /^LD_PRELOAD$/i, effect: () => 'every program started loads this library first' },
  { name: /^LD_LIBRARY_PATH$/i, effect: () => 'programs load their libraries from these folders first' },
  { name: /^LD_AUDIT$/i, effect: () => 'every program started loads this library to watch it' },
  { name: /^LD_\w+$/i, effect: () => 'changes how programs load their libraries' },
  { name: /^DYLD_INSERT_LIBRARIES$/i, effect: () => 'every program started loads this library first (macOS)' },
  { name: /^DYLD_\w+$/i, effect: () => 'changes where programs load their libraries from (macOS)' },
  { name: /^PATH$/i, effect: () => 'npx, uvx, node and every program they start are looked for in these folders' },
  { name: /^PATHEXT$/i, effect: () => 'which files count as programs (Windows)' },
  { name: /^(?:HOME|USERPROFILE|XDG_CONFIG_HOME|APPDATA)$/i, effect: () => SETTINGS_HOMES },
  { name: /^(?:HTTPS?_PROXY|ALL_PROXY)$/i, effect: () => 'downloads go through this proxy' },
  { name: /^(?:SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE)$/i, effect: () => 'downloads trust the certificates here' },
  { name: /^(?:BASH_ENV|ENV)$/i, effect: () => 'every shell script run reads this file first' },
  { name: /^COMSPEC$/i, effect: () => "npm runs packages' scripts with this program (Windows)" },
  { name: /^GIT_(?:SSH|SSH_COMMAND|ASKPASS|PROXY_COMMAND|EXEC_PATH)$/i, effect: () => 'git, which npm and uv fetch git dependencies with, runs this' },
  { name: /^GIT_CONFIG\w*$/i, effect: () => 'changes the settings of git, which npm and uv fetch git dependencies with' },
  { name: /^(?:PERL5\w*|PERLLIB)$/i, effect: () => 'Perl loads modules or options from here first' },
  { name: /^(?:RUBYOPT|RUBYLIB)$/i, effect: () => 'Ruby loads modules or options from here first' },
  { name: /^(?:JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS)$/i, effect: () => 'every Java program starts with these options (an agent library runs first)' },
  { name: /^CLASSPATH$/i, effect: () => 'Java loads classes from these folders first' },
  { name: /^(?:ZDOTDIR|PROMPT_COMMAND|PS4|SHELLOPTS|BASHOPTS)$/i, effect: () => 'changes what a shell runs as it starts or runs each command' },
];

/** Whether the variable of this name changes where a program's code comes from (any of the above). */
export function changesLoading(name: string): boolean {
  return RULES.some((rule) => rule.name.test(name));
}

function npmSetting(name: string): string {
  return name.toLowerCase().replace(/_/g, '-');
}

/** The variables of `env` that change where code comes from, in `env`'s order. */
export function loaderVariables(env: Readonly<Record<string, string>>): LoaderVariable[] {
  const found: LoaderVariable[] = [];
  for (const [name, value] of Object.entries(env)) {
    for (const rule of RULES) {
      const match = rule.name.exec(name);
      if (match) {
        found.push({ name, value, effect: rule.effect(value, match) });
        break;
      }
    }
  }
  return found;
}
