/**
 * A server asks the user to open a URL (URL-mode elicitation) whose scheme the system would run:
 * the application's handler, which shows it and may open it, never sees it, however the server
 * asks (a request on the stream, a 2026-07-28 `input_required` round, a 2025-11-25 -32042 error).
 */
import { createMcpClient, type ElicitationRequest, McpError } from '@toolwire/client';
import { type ReferenceServer, startReferenceServer } from '@toolwire/reference-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ dualEra: true });
});
afterAll(() => server?.close());

const hostile = ['file:///etc/passwd', 'javascript:alert(1)', 'ms-msdt:/id PCWDiagnostic'];

describe.each([
  ['2026-07-28 (input_required)', () => server.urls.modern, {}],
  ['2025-11-25 (a request on the stream)', () => server.urls.stateful, {}],
  ['2025-11-25 (-32042)', () => server.urls.stateful, { required: true }],
])('%s', (_how, urlOf, extra) => {
  test.each(hostile)('%s never reaches the handler', async (url) => {
    const seen: ElicitationRequest[] = [];
    await using client = createMcpClient(urlOf(), {
      onElicitation: (request) => {
        seen.push(request);
        return { action: 'accept' };
      },
    });
    const outcome = await client
      .callTool('elicit_url', { url, ...extra })
      .catch((error: unknown) => error);
    expect(seen).toEqual([]);
    // The call ends as a failure of some kind, typed, and never as the user's acceptance.
    if (outcome instanceof Error) expect(outcome).toBeInstanceOf(McpError);
    else expect(outcome).not.toMatchObject({ structuredContent: { action: 'accept' } });
  });
});

test('an https URL still reaches the handler (the check is not a blanket refusal)', async () => {
  const seen: ElicitationRequest[] = [];
  await using client = createMcpClient(server.urls.modern, {
    onElicitation: (request) => {
      seen.push(request);
      return { action: 'decline' };
    },
  });
  await client.callTool('elicit_url', { url: 'https://example.com/connect' });
  expect(seen).toMatchObject([{ mode: 'url', url: 'https://example.com/connect' }]);
});
