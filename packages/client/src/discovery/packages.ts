/**
 * A registry package as a local server: the command line its runner takes (npm through npx,
 * PyPI through uvx, an OCI image through docker, NuGet through dnx), its arguments and
 * environment filled through the application's inputs. Nothing goes through a shell. A runner
 * this machine lacks, or a kind toolwire cannot run, is a RunnerMissingError saying what to install.
 */
import type { StdioServer } from '../client/stdio-server.ts';
import { DiscoveryError, RunnerMissingError } from '../core/errors.ts';
import { fillInput, type InputSource } from './inputs.ts';
import { findProgram } from './runners.ts';
import type { ArgumentSpec, PackageSpec, ServerCard } from './types.ts';

/** How each kind runs, and what to install when its runner is missing. */
const KINDS: Record<string, { runner: string; install: string }> = {
  npm: { runner: 'npx', install: 'install Node.js (npx comes with npm): https://nodejs.org' },
  pypi: { runner: 'uvx', install: 'install uv: https://docs.astral.sh/uv/' },
  oci: { runner: 'docker', install: 'install Docker: https://docs.docker.com/get-docker/' },
  nuget: {
    runner: 'dnx',
    install: 'install the .NET 10 SDK: https://dotnet.microsoft.com/download',
  },
};

const DEFAULT_REGISTRIES: Record<string, string> = {
  npm: 'https://registry.npmjs.org',
  pypi: 'https://pypi.org',
  oci: 'https://docker.io',
};

export interface PackageOptions {
  inputs?: InputSource | undefined;
  /** The PATH runners are looked for on. @default process.env.PATH */
  path?: string | undefined;
}

/** A package's command line, and which environment variables carry secrets. */
export interface PackageCommand extends StdioServer {
  args: string[];
  env: Record<string, string>;
  /** Names of the environment variables a secret went into. */
  secretEnv: string[];
}

/** The first of the card's packages this machine can run, as a command line. */
export async function packageCommand(
  card: ServerCard,
  options: PackageOptions = {},
): Promise<PackageCommand> {
  const packages = card.packages ?? [];
  if (packages.length === 0) throw new DiscoveryError('card', `${card.name} has no package`);
  let missing: RunnerMissingError | undefined;
  for (const pkg of packages) {
    try {
      return await commandOf(pkg, options);
    } catch (error) {
      // Another package of the same server may have a runner this machine has.
      if (!(error instanceof RunnerMissingError)) throw error;
      missing ??= error;
    }
  }
  throw missing!;
}

export async function commandOf(
  pkg: PackageSpec,
  options: PackageOptions = {},
): Promise<PackageCommand> {
  if (pkg.transport.type !== 'stdio') {
    throw new DiscoveryError(
      'card',
      `package ${pkg.identifier} serves ${pkg.transport.type}, not stdio: run it yourself and connect to its URL`,
    );
  }
  if (pkg.registryType === 'mcpb') {
    throw new RunnerMissingError(
      'an MCPB host',
      'toolwire verifies bundles (verifyBundle, by fileSha256) but does not unpack and run them; open it in an MCPB host',
    );
  }
  const kind = KINDS[pkg.registryType];
  if (!kind) {
    throw new RunnerMissingError(
      pkg.registryType,
      `toolwire cannot run ${pkg.registryType} packages; use one of npm, pypi, oci, nuget`,
    );
  }
  const runner = pkg.runtimeHint ?? kind.runner;
  if (!/^[\w.-]+$/.test(runner))
    throw new DiscoveryError('card', `runtimeHint "${runner.slice(0, 40)}" is not a program name`);
  if (!(await findProgram(runner, options.path)))
    throw new RunnerMissingError(runner, kind.install);
  const runtimeArgs = await expand(pkg.runtimeArguments, 'runtime', options.inputs);
  const packageArgs = await expand(pkg.packageArguments, 'argument', options.inputs);
  const env: Record<string, string> = {};
  const secretEnv: string[] = [];
  for (const variable of pkg.environmentVariables ?? []) {
    const filled = await fillInput(`env:${variable.name}`, variable.name, variable, options.inputs);
    if (!filled) continue;
    env[variable.name] = filled.value;
    if (filled.secret) secretEnv.push(variable.name);
  }
  const registry =
    pkg.registryBaseUrl && pkg.registryBaseUrl !== DEFAULT_REGISTRIES[pkg.registryType]
      ? pkg.registryBaseUrl
      : undefined;
  const args = argsFor(pkg, runtimeArgs, packageArgs, Object.keys(env), registry);
  return { command: runner, args, env, secretEnv };
}

function argsFor(
  pkg: PackageSpec,
  runtimeArgs: string[],
  packageArgs: string[],
  envNames: string[],
  registry: string | undefined,
): string[] {
  const version = pkg.version;
  switch (pkg.registryType) {
    case 'npm': {
      const yes = runtimeArgs.includes('-y') || runtimeArgs.includes('--yes') ? [] : ['-y'];
      const where = registry ? [`--registry=${registry}`] : [];
      return [
        ...yes,
        ...where,
        ...runtimeArgs,
        version ? `${pkg.identifier}@${version}` : pkg.identifier,
        ...packageArgs,
      ];
    }
    case 'pypi': {
      const where = registry ? ['--index-url', registry] : [];
      return [
        ...where,
        ...runtimeArgs,
        version ? `${pkg.identifier}==${version}` : pkg.identifier,
        ...packageArgs,
      ];
    }
    case 'oci': {
      // Variables go by name: docker reads their values from its own environment, not argv.
      const envFlags = envNames.flatMap((name) => ['-e', name]);
      const tagged =
        version && !/[:@][^/]*$/.test(pkg.identifier)
          ? `${pkg.identifier}:${version}`
          : pkg.identifier;
      const host = registry ? `${new URL(registry).host}/` : '';
      return ['run', '-i', '--rm', ...envFlags, ...runtimeArgs, host + tagged, ...packageArgs];
    }
    default: // nuget through dnx
      return [
        ...runtimeArgs,
        version ? `${pkg.identifier}@${version}` : pkg.identifier,
        '--yes',
        ...packageArgs,
      ];
  }
}

/** Arguments as command-line words: a positional one's value, a named one's `--flag=value`. */
async function expand(
  specs: readonly ArgumentSpec[] | undefined,
  prefix: string,
  source: InputSource | undefined,
): Promise<string[]> {
  const words: string[] = [];
  for (const spec of specs ?? []) {
    const label = spec.type === 'named' ? spec.name! : (spec.valueHint ?? spec.value ?? 'value');
    const filled = await fillInput(`${prefix}:${label}`, label, spec, source);
    // An optional argument nobody filled is left out: a bare flag is published with a `value`.
    if (!filled) continue;
    words.push(spec.type === 'named' ? `${spec.name}=${filled.value}` : filled.value);
  }
  return words;
}
