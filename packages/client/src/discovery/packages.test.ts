import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiscoveryError, RunnerMissingError } from '../core/errors.ts';
import { commandOf, packageCommand } from './packages.ts';
import type { PackageSpec } from './types.ts';

// A PATH holding stand-ins for the runners, and an empty one: whether this machine has npx or
// docker must not decide what these tests see.
let withRunners: string;
let empty: string;

beforeAll(async () => {
  withRunners = await mkdtemp(join(tmpdir(), 'toolwire-runners-'));
  empty = await mkdtemp(join(tmpdir(), 'toolwire-empty-'));
  for (const runner of ['npx', 'uvx', 'docker', 'dnx']) {
    await writeFile(join(withRunners, runner), '#!/bin/sh\nexit 0\n');
    await chmod(join(withRunners, runner), 0o755);
  }
});

afterAll(async () => {
  await rm(withRunners, { recursive: true, force: true });
  await rm(empty, { recursive: true, force: true });
});

const stdio = { type: 'stdio' };

describe.skipIf(process.platform === 'win32')('packages as local servers', () => {
  test('npm through npx -y NAME@VERSION, with a private registry, arguments and environment filled', async () => {
    const pkg: PackageSpec = {
      registryType: 'npm',
      identifier: '@acme/weather-mcp',
      version: '1.4.2',
      registryBaseUrl: 'https://npm.acme.internal',
      transport: stdio,
      runtimeArguments: [
        { type: 'named', name: '--node-options', value: '--max-old-space-size=256' },
      ],
      packageArguments: [
        { type: 'positional', valueHint: 'root', isRequired: true },
        { type: 'named', name: '--units', choices: ['metric', 'imperial'], default: 'metric' },
        { type: 'named', name: '--optional-flag' },
      ],
      environmentVariables: [{ name: 'ACME_KEY', isRequired: true, isSecret: true }],
    };
    const command = await commandOf(pkg, {
      path: withRunners,
      inputs: { 'argument:root': '/srv/data', ACME_KEY: 'k-123' },
    });
    expect(command).toEqual({
      command: 'npx',
      args: [
        '-y',
        '--registry=https://npm.acme.internal',
        '--node-options=--max-old-space-size=256',
        '@acme/weather-mcp@1.4.2',
        '/srv/data',
        '--units=metric',
      ],
      env: { ACME_KEY: 'k-123' },
      secretEnv: ['ACME_KEY'],
    });
  });

  test('PyPI through uvx NAME==VERSION; the default registry adds nothing', async () => {
    const command = await commandOf(
      {
        registryType: 'pypi',
        identifier: 'weather-mcp',
        version: '0.3.0',
        registryBaseUrl: 'https://pypi.org',
        transport: stdio,
      },
      { path: withRunners },
    );
    expect(command).toMatchObject({ command: 'uvx', args: ['weather-mcp==0.3.0'] });
  });

  test('OCI through docker run: variables passed by name, never their values on the command line', async () => {
    const command = await commandOf(
      {
        registryType: 'oci',
        identifier: 'ghcr.io/acme/weather',
        version: '2.0.0',
        transport: stdio,
        environmentVariables: [{ name: 'TOKEN', isSecret: true, isRequired: true }],
      },
      { path: withRunners, inputs: { TOKEN: 'tok-SECRET' } },
    );
    expect(command.command).toBe('docker');
    expect(command.args).toEqual([
      'run',
      '-i',
      '--rm',
      '-e',
      'TOKEN',
      'ghcr.io/acme/weather:2.0.0',
    ]);
    expect(command.args.join(' ')).not.toContain('tok-SECRET');
    expect(command.env).toEqual({ TOKEN: 'tok-SECRET' });
  });

  test('NuGet through dnx, as its runtimeHint says', async () => {
    const command = await commandOf(
      {
        registryType: 'nuget',
        identifier: 'Acme.Weather',
        version: '1.0.0',
        runtimeHint: 'dnx',
        transport: stdio,
      },
      { path: withRunners },
    );
    expect(command).toMatchObject({ command: 'dnx', args: ['Acme.Weather@1.0.0', '--yes'] });
  });

  test('a missing runner is a RunnerMissingError that says what to install', async () => {
    const error = await commandOf(
      { registryType: 'pypi', identifier: 'weather-mcp', version: '0.3.0', transport: stdio },
      { path: empty },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunnerMissingError);
    expect(error).toMatchObject({ code: 'RUNNER_MISSING', family: 'local', runner: 'uvx' });
    expect((error as RunnerMissingError).install).toMatch(/uv/);
  });

  test('a kind toolwire does not run, and an mcpb bundle, are RunnerMissingErrors too', async () => {
    const cargo = await commandOf(
      { registryType: 'cargo', identifier: 'x', transport: stdio },
      { path: withRunners },
    ).catch((e: unknown) => e);
    expect(cargo).toBeInstanceOf(RunnerMissingError);
    const mcpb = await commandOf(
      {
        registryType: 'mcpb',
        identifier: 'https://example.com/x.mcpb',
        fileSha256: 'a'.repeat(64),
        transport: stdio,
      },
      { path: withRunners },
    ).catch((e: unknown) => e);
    expect(mcpb).toBeInstanceOf(RunnerMissingError);
  });

  test('a server with several packages runs the first whose runner is here', async () => {
    const command = await packageCommand(
      {
        name: 'com.acme/weather',
        packages: [
          { registryType: 'cargo', identifier: 'weather', transport: stdio },
          { registryType: 'npm', identifier: 'weather', version: '1.0.0', transport: stdio },
        ],
      },
      { path: withRunners },
    );
    expect(command.command).toBe('npx');
  });

  test('a runtimeHint that is not a program name is refused', async () => {
    const error = await commandOf(
      { registryType: 'npm', identifier: 'x', runtimeHint: '../../bin/sh', transport: stdio },
      { path: withRunners },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscoveryError);
  });
});
