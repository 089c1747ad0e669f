/**
 * The environment a server process starts with. A local server is a program the user chose, but
 * not one that should read every secret in the parent's environment: it gets the variables a
 * program needs to run (where home is, where programs are, the terminal and the language), plus
 * what the caller passes. A caller who wants the whole environment passes `env: process.env`.
 */

/** What a program needs on POSIX: who and where the user is, where programs are, the locale. */
const POSIX = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TMPDIR',
];

/** What a program needs on Windows to find its profile, programs and temporary folder. */
const WINDOWS = [
  'APPDATA',
  'COMSPEC',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMW6432',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'WINDIR',
];

/** The names a server process inherits from the parent unless the caller says otherwise. */
export const INHERITED_ENV: readonly string[] = process.platform === 'win32' ? WINDOWS : POSIX;

/**
 * The allowed variables of `parent`, with `extra` over them. A value starting with `()` is an
 * exported shell function, which a shell in the child would run: it is never passed on.
 */
export function serverEnvironment(
  extra: Readonly<Record<string, string | undefined>> = {},
  parent: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = lookup(parent, name);
    if (value !== undefined && !value.startsWith('()')) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Windows names are case-insensitive (`Path`); POSIX names are exact. */
function lookup(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): string | undefined {
  if (process.platform !== 'win32') return env[name];
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}
