/**
 * Finding 2: an authorization server's metadata names an authorization endpoint that the user's
 * system would run (`file:`, `smb:`, `javascript:`, `ms-msdt:`), the class of CVE-2025-6514. The
 * URL is refused before the application's `authorize` (or the CLI's opener) ever sees it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthorizationError, createMcpClient, memoryAuthStore } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { describe, expect, test } from 'vitest';
import { toolwire } from '../helpers/toolwire.ts';
import { startAuthorizationServer } from './servers.ts';

const hostile = [
  'file:///C:/Windows/System32/calc.exe',
  'smb://attacker.example/share/payload.exe',
  'javascript:alert(document.cookie)',
  'ms-msdt:/id PCWDiagnostic /skip force',
  'data:text/html,<script>alert(1)</script>',
  'http://attacker.example/authorize',
];

/** An MCP server whose authorization server names `endpoint` as its authorization endpoint. */
async function serverNaming(endpoint: string) {
  const as = await startAuthorizationServer((origin) => ({
    authorization_endpoint: endpoint,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  }));
  const server = await startReferenceServer({
    dualEra: true,
    protect: { authorizationServers: [as.origin], verify: () => undefined },
  });
  return {
    url: server.url,
    [Symbol.asyncDispose]: async () => {
      await server.close();
      await as.close();
    },
  };
}

describe('an authorization endpoint of another scheme never reaches anyone', () => {
  test.each(hostile)('%s: refused, typed, and `authorize` is never called', async (endpoint) => {
    await using server = await serverNaming(endpoint);
    const handed: string[] = [];
    await using client = createMcpClient(server.url, {
      auth: {
        client: { clientId: 'app' },
        redirectUri: 'http://127.0.0.1:1/callback',
        authorize: async (url) => {
          handed.push(url.href);
          return 'http://127.0.0.1:1/callback?code=x';
        },
        store: memoryAuthStore(),
      },
    });
    const error = await client.listTools().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationError);
    expect(error).toMatchObject({ reason: 'discovery' });
    expect((error as Error).message).toMatch(/refused the authorization_endpoint/);
    expect(handed).toEqual([]);
  });

  test.each(hostile)('%s: `toolwire login` refuses it and opens nothing', async (endpoint) => {
    await using server = await serverNaming(endpoint);
    const config = await mkdtemp(join(tmpdir(), 'toolwire-hostile-'));
    try {
      const run = await toolwire(['login', server.url], {
        env: { ...process.env, TOOLWIRE_CONFIG_DIR: config },
        // Without the check, login would wait for a sign-in that never comes.
        timeoutMs: 8_000,
      });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/refused the authorization_endpoint/);
      expect(run.stderr).not.toMatch(/Sign in at/);
    } finally {
      await rm(config, { recursive: true, force: true });
    }
  });
});
