/**
 * What only the gRPC binding has to get right: no probe, promises through CallTool of `redeem`,
 * partials on CallToolStream in order, the deadline on the wire and the abort seen by the
 * server, a stream without its final meta, an enum value the client does not know, a server
 * without the streaming RPC, metadata, and TLS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import {
  AbortedError,
  createMcpClient,
  HandleExpiredError,
  MalformedMessageError,
  StreamTruncatedError,
  TimeoutError,
  type ToolStreamEvent,
} from '@toolwire/client';
import { startGrpcReferenceServer } from '@toolwire/reference-server/grpc';
import { describe, expect, test } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';

const fast = { retry: { minDelayMs: 1, maxDelayMs: 2 } };

describe('connecting', () => {
  test('a grpc URL goes straight to MCP-lite: GetTools is the first and only request', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url);
    await client.connect();
    expect(client.dialect).toBe('mcp-lite');
    expect(client.protocolVersion).toBe('0.042');
    expect(server.calls.map((call) => call.rpc)).toEqual(['GetTools']);
    // The listing that proved the dialect answers the first listTools.
    expect((await client.listTools()).length).toBeGreaterThan(5);
    expect(server.calls).toHaveLength(1);
  });

  test('headers travel as metadata, and a call`s meta as the request`s meta', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, {
      headers: { Authorization: 'Bearer s3cret', 'x-tenant': 'ada', 'content-type': 'text/plain' },
    });
    await client.callTool('echo', { text: 'hi' }, { meta: { toolCallId: 'call_1' } });
    for (const call of server.calls) {
      expect(call.headers).toMatchObject({ authorization: 'Bearer s3cret', 'x-tenant': 'ada' });
      // What the binding owns is not the application's to replace.
      expect(call.headers['content-type']).toBe('application/grpc+proto');
    }
    expect(server.calls.at(-1)).toMatchObject({
      rpc: 'CallTool',
      tool: 'echo',
      arguments: { text: 'hi' },
      meta: { toolCallId: 'call_1' },
    });
  });
});

describe('promises', () => {
  test('redeemed with CallTool of redeem until the answer is in', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    const result = await client.callTool('analyze_dataset', { dataset_id: 'large', polls: 2 });
    expect(result.structuredContent).toEqual([{ dataset_id: 'large', rows: 1000, outliers: 3 }]);
    const calls = server.calls.filter((call) => call.rpc !== 'GetTools');
    expect(calls.map((call) => `${call.rpc} ${call.tool}`)).toEqual([
      'CallTool analyze_dataset',
      'CallTool redeem',
      'CallTool redeem',
      'CallTool redeem',
    ]);
    // Every redeem carried the token the first answer gave.
    const tokens = new Set(calls.slice(1).map((call) => call.arguments?.['promise']));
    expect(tokens.size).toBe(1);
    expect(server.liteRedeems).toHaveLength(3);
  });

  test('waited for until estimated_completion, which travels as epoch milliseconds', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    const result = await client.callTool('long_analysis', { ms: 300, text: 'due' });
    expect(result.content).toEqual([{ type: 'text', text: 'analysis: due' }]);
    // Never redeemed before the server said it would be ready.
    for (const redeem of server.liteRedeems) expect(redeem.at).toBeGreaterThanOrEqual(redeem.due!);
  });

  test('redeemed by another client from the handle a store kept', async () => {
    await using server = await startGrpcReferenceServer();
    const saved: unknown[] = [];
    const handles = { save: (handle: unknown) => void saved.push(handle), delete: () => {} };
    const first = createMcpClient(server.url, { ...fast, handles });
    const error = await first
      .callTool('long_analysis', { ms: 400, text: 'later' }, { timeoutMs: 100 })
      .catch((caught: unknown) => caught);
    await first.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(saved).toHaveLength(1);
    await using second = createMcpClient(server.url, fast);
    const result = await second.redeem(JSON.parse(JSON.stringify(saved[0])));
    expect(result.content).toEqual([{ type: 'text', text: 'analysis: later' }]);
  });

  test('an expired token is a HandleExpiredError (INVALID_ARGUMENT from redeem)', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    const error = await client
      .callTool('long_analysis', { ms: 400, ttlMs: 100 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HandleExpiredError);
    expect(server.calls.at(-1)).toMatchObject({ tool: 'redeem', status: 'INVALID_ARGUMENT' });
  });
});

describe('streams', () => {
  test('partials arrive in order on CallToolStream; the final message ends the call', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    const events: ToolStreamEvent[] = [];
    for await (const event of client.streamTool('generate_report', { topic: 'Q4', beats: 2 })) {
      events.push(event);
    }
    expect(events.map((event) => event.type)).toEqual(['partial', 'partial', 'result']);
    expect(events.slice(0, 2)).toEqual([
      { type: 'partial', content: [{ type: 'text', text: 'Q4\n\nExecutive Summary' }] },
      {
        type: 'partial',
        content: [{ type: 'text', text: '\n\nRevenue for Q4 increased by 15%...' }],
      },
    ]);
    expect(server.calls.at(-1)).toMatchObject({ rpc: 'CallToolStream', status: 'OK' });
  });

  test('heartbeats keep the deadline alive; the same silence without them times out', async () => {
    await using server = await startGrpcReferenceServer();
    // Eight beats 100 ms apart against a 300 ms timeout: only the heartbeats carry it through.
    const slow = { topic: 'Q4', beats: 8, beat_ms: 100 };
    await using client = createMcpClient(server.url, { ...fast, timeoutMs: 300 });
    const result = await client.callTool('generate_report', slow, { onProgress: () => {} });
    expect(result.isError).toBe(false);
    const error = await client
      .callTool('generate_report', { ...slow, silent: true }, { onProgress: () => {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  test('a stream that ends without its final meta is a StreamTruncatedError, not sent again', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.cutStreamBeforeMeta();
    const parts: unknown[] = [];
    const error = await client
      .callTool('generate_report', { topic: 'Q4' }, { onPartial: (part) => parts.push(part) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamTruncatedError);
    expect(parts).toHaveLength(2);
    expect(server.calls.filter((call) => call.rpc === 'CallToolStream')).toHaveLength(1);
  });

  test('a response_type the enum lacks is a MalformedMessageError', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.unknownResponseType(7);
    const error = await client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MalformedMessageError);
    expect((error as Error).message).toContain('response_type 7');
    server.faults.unknownResponseType(9);
    const streamed = await client
      .callTool('generate_report', { topic: 'Q4' }, { onPartial: () => {} })
      .catch((caught: unknown) => caught);
    expect(streamed).toBeInstanceOf(MalformedMessageError);
  });

  test('a server without CallToolStream (UNIMPLEMENTED): unary instead, asked once', async () => {
    await using server = await startGrpcReferenceServer({ streaming: false });
    await using client = createMcpClient(server.url, fast);
    for (let round = 0; round < 2; round++) {
      const result = await client.callTool(
        'generate_report',
        { topic: 'Q4' },
        { onPartial: () => {} },
      );
      expect(result.content).toEqual([
        { type: 'text', text: 'Q4\n\nExecutive Summary\n\nRevenue for Q4 increased by 15%...' },
      ]);
    }
    expect(server.calls.map((call) => `${call.rpc} ${call.status}`)).toEqual([
      'GetTools OK',
      'CallToolStream UNIMPLEMENTED',
      'CallTool OK',
      'CallTool OK',
    ]);
  });
});

describe('deadlines and aborts reach the server', () => {
  test('the call`s deadline goes on the wire as grpc-timeout', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, { ...fast, timeoutMs: 4_000 });
    await client.callTool('echo', { text: 'x' });
    const unary = server.calls.at(-1)!;
    expect(unary.timeoutMs).toBeGreaterThan(0);
    expect(unary.timeoutMs).toBeLessThanOrEqual(4_000);
    // A stream whose partials push the timeout back carries the hard cap instead.
    await client.callTool(
      'generate_report',
      { topic: 'Q4' },
      { onPartial: () => {}, maxTimeoutMs: 9_000 },
    );
    const stream = server.calls.at(-1)!;
    expect(stream.rpc).toBe('CallToolStream');
    expect(stream.timeoutMs).toBeGreaterThan(4_000);
    expect(stream.timeoutMs).toBeLessThanOrEqual(9_000);
  });

  test('a deadline that passes ends the call on the server too', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.delay(10_000);
    const error = await client
      .callTool('echo', { text: 'x' }, { timeoutMs: 200 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    await waitFor(() => server.calls.at(-1)?.status !== undefined);
    // Whichever came first, the client's cancel or the server's own deadline, the tool stopped.
    expect(['CANCELLED', 'DEADLINE_EXCEEDED']).toContain(server.calls.at(-1)?.status);
  });

  test('an abort cancels the call on the server', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    await client.connect();
    server.faults.delay(10_000);
    const controller = new AbortController();
    const call = client.callTool('echo', { text: 'x' }, { signal: controller.signal });
    await waitFor(() => server.calls.length === 2);
    controller.abort(new Error('the user left'));
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    await waitFor(() => server.calls[1]?.status !== undefined);
    expect(server.calls[1]?.status).toBe('CANCELLED');
  });

  test('leaving a streamTool loop early cancels the stream on the server', async () => {
    await using server = await startGrpcReferenceServer();
    await using client = createMcpClient(server.url, fast);
    const slow = { topic: 'Q4', beats: 50, beat_ms: 200 };
    for await (const event of client.streamTool('generate_report', slow)) {
      expect(event.type).toBe('partial');
      break;
    }
    await waitFor(() => server.calls.at(-1)?.status !== undefined);
    expect(server.calls.at(-1)).toMatchObject({ rpc: 'CallToolStream', status: 'CANCELLED' });
  });
});

describe('grpcs://', () => {
  test('speaks the binding over TLS, trusting what Node trusts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-grpcs-'));
    const before = getCACertificates('default');
    try {
      const key = join(dir, 'key.pem');
      const cert = join(dir, 'cert.pem');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      const tls = { key: readFileSync(key), cert: readFileSync(cert) };
      await using server = await startGrpcReferenceServer({ tls });
      expect(server.url).toMatch(/^grpcs:\/\/127\.0\.0\.1:\d+$/);
      // Untrusted: the handshake fails, and the error says so.
      await using untrusting = createMcpClient(server.url, { ...fast, retry: { retries: 0 } });
      await expect(untrusting.connect()).rejects.toMatchObject({ code: 'TRANSPORT' });
      setDefaultCACertificates([...before, tls.cert.toString()]);
      await using client = createMcpClient(server.url, fast);
      const result = await client.callTool('echo', { text: 'over TLS' });
      expect(result.content).toEqual([{ type: 'text', text: 'over TLS' }]);
    } finally {
      setDefaultCACertificates(before);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
