/**
 * `toolwire login` against a real authorization server (oidc-provider) and the reference server
 * in protected mode: a command that needs a login says to run it; login prints the sign-in URL,
 * takes the redirect on its loopback port and keeps the tokens in a file only the user can read;
 * later commands (other processes) use them without the authorization server's login; logout
 * forgets them. No token appears in any output.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../helpers/authorization-server.ts';
import { TOOLWIRE_BIN, toolwire } from '../helpers/toolwire.ts';

let as: AuthorizationServer;
let server: ReferenceServer;
let config: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  as = await startAuthorizationServer();
  server = await startReferenceServer({
    dualEra: true,
    protect: { authorizationServers: [as.issuer], scopesSupported: ['mcp:read', 'mcp:write'] },
  });
  config = await mkdtemp(join(tmpdir(), 'toolwire-login-'));
  env = { ...process.env, TOOLWIRE_CONFIG_DIR: config };
});

afterAll(async () => {
  await server?.close();
  await as?.close();
  await rm(config, { recursive: true, force: true });
});

/** Runs `toolwire login URL` as a user would: opens the printed URL, signs in, is sent back. */
async function login(
  url: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [TOOLWIRE_BIN, 'login', url], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const signIn = new Promise<string>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /Sign in at: (\S+)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const page = await Promise.race([signIn, closed.then(() => undefined)]);
  if (page !== undefined) {
    // The browser: the authorization server's pages, then the redirect to toolwire's loopback port.
    const redirect = await as.user.authorize(new URL(page), {
      signal: AbortSignal.timeout(15_000),
    });
    await (await fetch(redirect)).text();
  }
  return { code: await closed, stdout, stderr };
}

test('login, then commands in other processes use the stored tokens, then logout', async () => {
  const before = await toolwire(['call', server.url, 'echo', 'text=hi'], { env });
  expect(before.code).toBe(3);
  expect(before.stderr).toContain(
    `${server.url} asks you to log in: run toolwire login ${server.url}`,
  );

  const signedIn = await login(server.url);
  expect(signedIn).toMatchObject({ code: 0 });
  expect(signedIn.stdout).toContain(`Logged in to toolwire-reference-server at ${server.url}.`);
  expect(as.registrations).toEqual([expect.objectContaining({ client_name: 'toolwire CLI' })]);

  const file = join(config, 'auth.json');
  expect(((await stat(file)).mode & 0o777).toString(8)).toBe('600');
  const stored = JSON.parse(await readFile(file, 'utf8')) as Record<
    string,
    { accessToken?: string }
  >;
  const [tokens] = Object.entries(stored).filter(([key]) => key.startsWith('tokens '));
  const accessToken = tokens?.[1].accessToken ?? '';
  expect(accessToken).not.toBe('');

  const authorizations = as.user.authorizations.length;
  for (const protocol of ['auto', 'legacy']) {
    const call = await toolwire(['call', server.url, 'echo', 'text=hi', '--protocol', protocol], {
      env,
    });
    expect({ code: call.code, stdout: call.stdout }).toEqual({ code: 0, stdout: 'hi\n' });
    expect(call.stdout + call.stderr).not.toContain(accessToken);
  }
  // The other processes signed in with the stored tokens: no one was sent to sign in again.
  expect(as.user.authorizations).toHaveLength(authorizations);
  expect(signedIn.stdout + signedIn.stderr).not.toContain(accessToken);

  const loggedOut = await toolwire(['logout', server.url], { env });
  expect(loggedOut).toMatchObject({ code: 0, stdout: `Logged out of ${server.url}.\n` });
  const after = await toolwire(['call', server.url, 'echo', 'text=hi'], { env });
  expect(after.code).toBe(3);
  const again = await toolwire(['logout', server.url, '--json'], { env });
  expect(JSON.parse(again.stdout)).toMatchObject({ loggedOut: false });
}, 60_000);

test('a header of its own (-H Authorization) is the credential: no OAuth is tried', async () => {
  const run = await toolwire(
    ['call', server.url, 'echo', 'text=hi', '-H', 'Authorization: Bearer not-a-token', '--json'],
    { env },
  );
  expect(run.code).toBe(3);
  expect(JSON.parse(run.stdout)).toMatchObject({ error: { exitCode: 3 } });
  expect(run.stdout + run.stderr).not.toContain('not-a-token');
});
