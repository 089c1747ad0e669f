/** The weather webtool, checked against seed 004 ("Webtools") with plain fetch. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../index.ts';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
});

function run(body: unknown): Promise<Response> {
  return fetch(`${server.urls.webtools}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const config = { apiKey: 'k' };

interface Metadata {
  version: string;
  actions: { name: string }[];
}

interface Ok {
  data: Record<string, unknown>;
}

it('describes the latest version at GET / and each version at GET /{version}', async () => {
  const latest = (await (await fetch(`${server.urls.webtools}/`)).json()) as Metadata;
  expect(latest).toMatchObject({
    name: 'weather',
    version: '2.0.0',
    defaultConfig: { units: 'metric' },
  });
  expect(latest.actions.map((action) => action.name)).toEqual(['get_current', 'get_forecast']);
  const old = (await (await fetch(`${server.urls.webtools}/1.0.0`)).json()) as Metadata;
  expect(old.version).toBe('1.0.0');
  const missing = await fetch(`${server.urls.webtools}/3.0.0`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toMatchObject({
    status: 'error',
    error: { code: 'WEBTOOL_NOT_FOUND' },
  });
});

it('runs an action in the version asked for, with config over the defaults', async () => {
  const v2 = (await (
    await run({ action: 'get_current', config, request: { location: 'Oslo' } })
  ).json()) as Ok;
  expect(v2).toMatchObject({ status: 'ok', data: { location: 'Oslo', units: 'metric' } });
  const v1 = (await (
    await run({ version: '1.0.0', action: 'get_current', config, request: { location: 'Oslo' } })
  ).json()) as Ok;
  expect(Object.keys(v1.data).sort()).toEqual(['conditions', 'temperature']);
});

it('answers each standard error code in the envelope, with a matching status', async () => {
  const cases: [unknown, number, string][] = [
    [{ jsonrpc: '2.0', method: 'server/discover' }, 400, 'SCHEMA_ERROR'],
    [{ action: 'get_current', config, request: {} }, 400, 'SCHEMA_ERROR'],
    [{ action: 'get_current', request: { location: 'x' } }, 400, 'CONFIG_ERROR'],
    [
      { version: '0.1', action: 'get_current', config, request: { location: 'x' } },
      404,
      'WEBTOOL_NOT_FOUND',
    ],
    [{ action: 'get_current', config, request: { location: 'Busytown' } }, 429, 'RATE_LIMIT'],
    [{ action: 'get_current', config, request: { location: 'Atlantis' } }, 500, 'INTERNAL_ERROR'],
    [{ action: 'get_history', config, request: {} }, 400, 'UNKNOWN_ACTION'],
  ];
  for (const [body, status, code] of cases) {
    const response = await run(body);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({
      status: 'error',
      error: { code, message: expect.any(String) },
    });
  }
});
