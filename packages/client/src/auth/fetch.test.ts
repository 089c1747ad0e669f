import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fetchOver } from './fetch.ts';

const SECRET = 'se"cr+et/1';
const BASIC = Buffer.from(`app:${encodeURIComponent(SECRET)}`).toString('base64');
let status = 400;
let url = '';
const agent = new Agent();
// Echoes the request's body and Authorization header back, JSON-, URL- and form-encoded.
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const echo = JSON.stringify({ body, authorization: req.headers.authorization });
    res
      .writeHead(status, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error_description="${encodeURIComponent(echo)}"`,
      })
      .end(JSON.stringify({ error: 'invalid_grant', error_description: `${echo} ${SECRET}` }));
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});
afterAll(async () => {
  server.close();
  await agent.close();
});

const request = {
  method: 'POST',
  headers: { authorization: `Basic ${BASIC}`, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: 'rt-1234',
    code_verifier: 'v-5678',
  }).toString(),
};

test('an error answer gives back none of the credentials its request carried, in any encoding', async () => {
  status = 400;
  const response = await fetchOver(agent, 1 << 20)(url, request);
  const seen = `${response.headers.get('www-authenticate')} ${await response.text()}`;
  for (const credential of [SECRET, encodeURIComponent(SECRET), BASIC, 'rt-1234', 'v-5678']) {
    expect(seen).not.toContain(credential);
  }
  expect(JSON.parse(seen.slice(seen.indexOf('{')))).toMatchObject({ error: 'invalid_grant' });
});

test('a success is left as it is: a refresh token may come back as it was sent', async () => {
  status = 200;
  const response = await fetchOver(agent, 1 << 20)(url, request);
  expect(await response.text()).toContain('rt-1234');
});
