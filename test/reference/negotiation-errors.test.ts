/**
 * Errors during negotiation that name the fix: a wrong path says what was tried and where MCP
 * servers usually are; a refusal with a plain-text reason quotes it.
 */
import { createMcpClient, HttpStatusError, UnsupportedServerError } from '@toolwire/client';
import { startReferenceServer } from '@toolwire/reference-server';
import { HttpResponse, http } from 'msw';
import { expect, test } from 'vitest';
import { startFaultServer } from '../helpers/fault-server.ts';

test('a base URL with the wrong path lists every path tried and suggests /mcp and /sse', async () => {
  await using server = await startReferenceServer();
  const origin = new URL(server.url).origin;
  await using client = createMcpClient(`${origin}/api/v1`);
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedServerError);
  const { probes, hint, message } = error as UnsupportedServerError;
  expect(probes.join('\n')).toContain(`${origin}/api/v1/listtools`);
  expect(probes.every((probe) => probe.includes('404'))).toBe(true);
  expect(hint).toContain('Nothing is served at /api/v1');
  expect(hint).toContain(`${origin}/mcp`);
  expect(hint).toContain(`${origin}/sse`);
  expect(message).toContain(hint);
});

test('any other refusal during negotiation quotes its plain-text body', async () => {
  await using server = await startFaultServer([
    http.all('*', () => new HttpResponse('teapot', { status: 418 })),
  ]);
  await using client = createMcpClient(server.url);
  const error = await client.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpStatusError);
  expect((error as HttpStatusError).message).toContain('"teapot"');
});

test('a 403 with a plain-text reason quotes its first line in the message', async () => {
  // What Playwright MCP answers when the Host header is not localhost.
  await using server = await startFaultServer([
    http.all(
      '*',
      () =>
        new HttpResponse('Access is only allowed at localhost:8931\nSee --allowed-hosts', {
          status: 403,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        }),
    ),
  ]);
  await using client = createMcpClient(server.url);
  const error = await client.connect().catch((e: unknown) => e);
  // Without `auth`, a 403 while connecting says credentials are wanted, quoting the server.
  expect(error).toMatchObject({ reason: 'credentials_required', status: 403 });
  expect((error as Error).message).toContain(
    'HTTP 403 "Access is only allowed at localhost:8931", no challenge',
  );
  const refusal = (error as Error).cause;
  expect(refusal).toBeInstanceOf(HttpStatusError);
  expect(refusal).toMatchObject({
    status: 403,
    reason: 'Access is only allowed at localhost:8931',
    method: 'server/discover',
  });
  expect((refusal as Error).message).toContain(
    'server answered HTTP 403 "Access is only allowed at localhost:8931"',
  );
});

test('an HTML or JSON error body is left to bodyExcerpt: its first line says nothing', async () => {
  await using server = await startFaultServer([
    http.all(
      '*',
      () =>
        new HttpResponse('<!doctype html><title>Forbidden</title>', {
          status: 403,
          headers: { 'content-type': 'text/html' },
        }),
    ),
  ]);
  await using client = createMcpClient(server.url);
  const failed = (await client.connect().catch((e: unknown) => e)) as Error;
  const error = failed.cause as HttpStatusError;
  expect(error).toBeInstanceOf(HttpStatusError);
  expect(error.reason).toBeUndefined();
  expect(error.message).toMatch(/^server answered HTTP 403: /);
  expect(error.bodyExcerpt).toContain('<title>Forbidden</title>');
});
