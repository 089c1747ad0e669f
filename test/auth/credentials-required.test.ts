/**
 * A server that wants credentials says so: one that answers 401 or 403 to every probe, with no
 * `auth` given, ends in AuthorizationError `credentials_required` naming its challenge's scheme
 * (never a value of it) and how to give credentials, in the client and in the CLI. A server that
 * refuses one dialect and serves another is still negotiated.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationError, createMcpClient } from '@toolwire/client';
import { expect, test } from 'vitest';
import { toolwire } from '../helpers/toolwire.ts';

const SECRET_REALM = 'realm-value-never-shown';
const BEARER = `Bearer realm="${SECRET_REALM}", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`;

async function serve(
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<AsyncDisposable & { url: (path?: string) => string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/mcp') => `http://127.0.0.1:${port}${path}`,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function refusing(status: 401 | 403, challenge: string | undefined) {
  return serve((_req, res) => {
    res.writeHead(status, challenge ? { 'www-authenticate': challenge } : {});
    res.end('no');
  });
}

test.each([
  [
    401,
    BEARER,
    'HTTP 401 "no", its challenge names Bearer with realm, resource_metadata',
    'Bearer',
  ],
  [401, undefined, 'HTTP 401 "no", no challenge', undefined],
  [403, undefined, 'HTTP 403 "no", no challenge', undefined],
  [403, 'DPoP algs="ES256"', 'HTTP 403 "no", its challenge names DPoP', 'DPoP'],
] as const)('%i with %s: credentials_required', async (status, challenge, said, scheme) => {
  await using server = await refusing(status, challenge);
  const url = server.url();
  await using client = createMcpClient(url, { tracing: false });
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationError);
  expect(error).toMatchObject({ reason: 'credentials_required', status, scheme, family: 'auth' });
  const { message } = error as Error;
  expect(message).toContain(
    `the server wants credentials (${said}): give them with the \`auth\` or \`headers\` option, or \`toolwire login ${url}\``,
  );
  expect(message).not.toContain(SECRET_REALM);
});

test("with `auth` given, a refusal stays the credentials' own", async () => {
  await using server = await refusing(403, undefined);
  await using client = createMcpClient(server.url(), {
    tracing: false,
    auth: { headers: () => ({ authorization: 'Bearer secret-token-never-shown' }) },
  });
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).not.toMatchObject({ reason: 'credentials_required' });
  expect(String((error as Error).message)).not.toContain('secret-token-never-shown');
});

test('a server that refuses one dialect and serves another is still negotiated', async () => {
  // MCP-lite's listing (named by the URL) wants credentials; MCP at the same URL answers.
  await using server = await serve((req, res, body) => {
    if (req.method === 'POST' && req.url === '/rpc') {
      const message = JSON.parse(body) as { id: number; method: string };
      if (message.method === 'server/discover') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'half', version: '1' } },
            },
          }),
        );
        return;
      }
    }
    res.writeHead(401, { 'www-authenticate': BEARER });
    res.end();
  });
  await using client = createMcpClient(server.url('/rpc'), { tracing: false, listen: false });
  await client.connect();
  expect(client.dialect).toBe('mcp-stateless');
});

test('the CLI says the server asks for a login, names the scheme, and exits 3', async () => {
  await using server = await refusing(401, BEARER);
  const url = server.url();
  const run = await toolwire(['call', url, 'echo', 'text=hi']);
  expect(run.code).toBe(3);
  expect(run.stderr).toContain(
    `${url} asks you to log in: run toolwire login ${url} (or pass -H "Authorization: …"); its challenge names Bearer`,
  );
  expect(run.stderr).not.toContain(SECRET_REALM);
});

test('the CLI, for a 403 without a challenge: the same advice, exit 3', async () => {
  await using server = await refusing(403, undefined);
  const url = server.url();
  const run = await toolwire(['inspect', url]);
  expect(run.code).toBe(3);
  expect(run.stderr).toContain(`${url} asks you to log in: run toolwire login ${url}`);
});
