/**
 * Session renewal as one critical section: requests wait for a renewal and go out with the new
 * id, a failed renewal never wedges the client, stream resumption never crosses sessions, and
 * nothing internal escapes.
 */
import { createMcpClient, isMcpError, SessionExpiredError, TimeoutError } from '@toolwire/client';
import { HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import {
  result,
  sessionServer,
  sseEvent,
  sseHeld,
  startFaultServer,
} from '../helpers/fault-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

const fast = {
  retry: { minDelayMs: 1, maxDelayMs: 5 },
  listen: false,
  protocolVersion: '2025-11-25',
} as const;
const done = (id: string | number | undefined, text = 'done') =>
  result(id, { content: [{ type: 'text', text }] });
const malformed = () =>
  new HttpResponse('{"jsonrpc":"2.0","id":', { headers: { 'content-type': 'application/json' } });

test('requests that start while the session is being renewed wait for it and carry the new id', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const { handlers, sessions } = sessionServer(async (message) => {
    // The renewal's initialize is held until the test lets it go.
    if (message.method === 'initialize' && sessions.opened.length === 1) await held;
    if (message.method === 'tools/call') return done(message.id, String(message.params?.['name']));
    return undefined;
  });
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  sessions.drop();
  const first = client.callTool('unsafe');
  await waitFor(() => server.callsOf('initialize').length === 2);
  const second = client.callTool('safe');
  // Give the second call every chance to go out before the renewal is answered.
  await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  expect((await first).content).toEqual([{ type: 'text', text: 'unsafe' }]);
  expect((await second).content).toEqual([{ type: 'text', text: 'safe' }]);
  const carried = server.callsOf('tools/call').map((call) => call.headers.get('mcp-session-id'));
  // The first call's 404 in s-1, then both calls in s-2; never a call without a session.
  expect(carried).toEqual(['s-1', 's-2', 's-2']);
});

test('a renewal answered with malformed JSON fails the call with a typed error and never wedges the client', async () => {
  let broken = true;
  const { handlers, sessions } = sessionServer((message) => {
    if (message.method === 'initialize' && sessions.opened.length > 0 && broken) return malformed();
    if (message.method === 'tools/call') return done(message.id);
    return undefined;
  });
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  sessions.drop();
  const error = await client.callTool('safe').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SessionExpiredError);
  // The 404 answered the call's POST: the server ran nothing, and sending it again is safe.
  expect(error).toMatchObject({ mayHaveRun: false, retryable: true, tool: 'safe' });
  // The server is healthy again: the next call starts a new session and succeeds.
  broken = false;
  expect((await client.callTool('unsafe')).content).toEqual([{ type: 'text', text: 'done' }]);
  expect(sessions.opened).toEqual(['s-1', 's-2']);
});

test('a failed renewal is tried again within the call, with backoff, when the server recovers', async () => {
  let brokenLeft = 2;
  const { handlers, sessions } = sessionServer((message) => {
    if (message.method === 'initialize' && sessions.opened.length > 0 && brokenLeft > 0) {
      brokenLeft -= 1;
      return malformed();
    }
    if (message.method === 'tools/call') return done(message.id);
    return undefined;
  });
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  sessions.drop();
  expect((await client.callTool('unsafe')).content).toEqual([{ type: 'text', text: 'done' }]);
  // One initialize to start, two broken renewals, one that worked.
  expect(server.callsOf('initialize')).toHaveLength(4);
  // The call's POST went out twice: the 404 in the forgotten session, then once in the new one.
  expect(server.callsOf('tools/call')).toHaveLength(2);
});

test("a 404 to the renewal's notifications/initialized ends the call with a toolwire error", async () => {
  const { handlers, sessions } = sessionServer((message, _request, session) => {
    if (message.method === 'notifications/initialized' && session !== 's-1') {
      return new HttpResponse(null, { status: 404 });
    }
    return undefined;
  });
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  sessions.drop();
  const error = await client.callTool('unsafe').catch((e: unknown) => e);
  expect(isMcpError(error)).toBe(true);
  expect(error).toBeInstanceOf(SessionExpiredError);
  expect((error as Error).name).not.toBe('SessionNotFound');
  expect(error).toMatchObject({ mayHaveRun: false });
});

test('a stream broken after a renewal is never resumed in the new session', async () => {
  let cut: (reason: unknown) => void = () => {};
  const broken = new Promise<void>((_resolve, reject) => {
    cut = reject;
  });
  broken.catch(() => {});
  const resumes: { session: string; lastEventId: string | null }[] = [];
  let calls = 0;
  const { handlers, sessions } = sessionServer(
    (message) => {
      if (message.method !== 'tools/call') return undefined;
      calls += 1;
      // The first call's answer: a priming event with an id, then the stream breaks on cue.
      if (calls === 1) return sseHeld([': primed\nid: a-1\ndata: \n\n'], broken);
      return done(message.id, `call ${calls}`);
    },
    {
      get: (request, session) => {
        resumes.push({ session, lastEventId: request.headers.get('last-event-id') });
        return new HttpResponse(null, { status: 400 });
      },
    },
  );
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  const first = client.callTool('safe');
  await waitFor(() => calls === 1);
  // Another call finds the session gone and renews it while the first call's stream is open.
  sessions.drop();
  await client.callTool('unsafe');
  expect(sessions.live).toEqual(new Set(['s-2']));
  cut(new Error('cut'));
  // The idempotent call is sent again in the new session rather than resumed across sessions.
  expect((await first).content).toEqual([{ type: 'text', text: 'call 3' }]);
  expect(resumes.filter((resume) => resume.lastEventId === 'a-1')).toEqual([]);
});

test('a call waiting for a renewal that hangs ends at its own deadline', async () => {
  const { handlers, sessions } = sessionServer(async (message) => {
    if (message.method === 'initialize' && sessions.opened.length > 0) {
      await new Promise(() => {});
    }
    return undefined;
  });
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, { ...fast, timeoutMs: 15_000 });
  await client.listTools();
  sessions.drop();
  const error = await client.callTool('safe', {}, { timeoutMs: 200 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  // The call's own deadline, not the renewal's background one.
  expect(error).toMatchObject({ method: 'tools/call', tool: 'safe', mayHaveRun: false });
});

test('the same event id is never sent under another session when the call is not idempotent', async () => {
  let cut: (reason: unknown) => void = () => {};
  const broken = new Promise<void>((_resolve, reject) => {
    cut = reject;
  });
  broken.catch(() => {});
  let calls = 0;
  const gets: string[] = [];
  const { handlers, sessions } = sessionServer(
    (message) => {
      if (message.method !== 'tools/call') return undefined;
      calls += 1;
      if (calls === 1) return sseHeld([sseEvent('', 'u-1')], broken);
      return done(message.id);
    },
    {
      get: (_request, session) => {
        gets.push(session);
        return new HttpResponse(null, { status: 400 });
      },
    },
  );
  await using server = await startFaultServer(handlers);
  await using client = createMcpClient(server.url, fast);
  await client.listTools();
  const first = client.callTool('unsafe').catch((e: unknown) => e);
  await waitFor(() => calls === 1);
  sessions.drop();
  await client.callTool('safe');
  cut(new Error('cut'));
  const error = await first;
  // The call may have run in the session that is gone: it is neither resumed elsewhere nor sent again.
  expect(error).toBeInstanceOf(SessionExpiredError);
  expect(error).toMatchObject({ mayHaveRun: true, retryable: false, tool: 'unsafe' });
  expect(gets).toEqual([]);
  expect(calls).toBe(2);
});
