import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthorizationError, ResponseTooLargeError } from '../../core/errors.ts';
import { gateOf, withGate } from './gate-interceptor.ts';
import {
  type HttpRequest,
  MAX_GATE_ROUNDS,
  type Refusal,
  type RequestGate,
  readText,
  send,
} from './http.ts';

const LIMIT = 4096;

let server: Server;
let agent: Agent;
let url: string;
/** The authorization header of each request the server saw. */
let seen: (string | undefined)[];
/** What the server does with each request. */
let answer: (req: IncomingMessage, res: ServerResponse) => void;

beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    answer(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  agent = new Agent();
});

afterEach(async () => {
  await agent.close();
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

function refuse(res: ServerResponse, body = 'token expired'): void {
  res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'x-kept': 'yes' });
  res.end(body);
}

function request(signal = new AbortController().signal): HttpRequest {
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal,
  };
}

/** A gate handing out tokens one, two, three…, saying `again` to each refusal. */
function counting(again: (round: number) => boolean | Promise<boolean>) {
  const refusals: Refusal[] = [];
  let token = 0;
  const gate: RequestGate = {
    headers: async () => ({ authorization: `Bearer ${++token}` }),
    refused: async (_request, refusal) => {
      refusals.push({ status: refusal.status, header: refusal.header });
      return again(refusals.length);
    },
  };
  return { gate, refusals };
}

describe('the gate as an undici interceptor', () => {
  it('is a dispatcher of its own, whose gate the gRPC binding can ask for', () => {
    const { gate } = counting(() => false);
    const gated = withGate(agent, gate, LIMIT);
    expect(gated).not.toBe(agent);
    expect(typeof gated.request).toBe('function');
    expect(gateOf(gated)).toBe(gate);
    expect(gateOf(agent)).toBeUndefined();
  });

  it('adds the gate’s headers to the request’s own', async () => {
    let contentType: string | undefined;
    answer = (req, res) => {
      contentType = req.headers['content-type'];
      res.end('ok');
    };
    const { gate } = counting(() => false);
    const response = await send(withGate(agent, gate, LIMIT), request());
    expect(await readText(response, LIMIT, url, new AbortController().signal)).toBe('ok');
    expect(seen).toEqual(['Bearer 1']);
    expect(contentType).toBe('application/json');
  });

  it('hands a refusal on whole when the gate lets it stand: status, headers and body', async () => {
    answer = (_req, res) => refuse(res);
    const { gate, refusals } = counting(() => false);
    const response = await send(withGate(agent, gate, LIMIT), request());
    expect(response.status).toBe(401);
    expect(response.header('x-kept')).toBe('yes');
    expect(response.header('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await readText(response, LIMIT, url, new AbortController().signal)).toBe(
      'token expired',
    );
    expect(refusals.map((refusal) => refusal.status)).toEqual([401]);
    expect(refusals[0]!.header('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(seen).toEqual(['Bearer 1']);
  });

  it('sends the request again with the new headers when the gate says so', async () => {
    answer = (req, res) => (req.headers.authorization === 'Bearer 2' ? res.end('ok') : refuse(res));
    const { gate } = counting(() => true);
    const response = await send(withGate(agent, gate, LIMIT), request());
    expect(response.status).toBe(200);
    expect(await readText(response, LIMIT, url, new AbortController().signal)).toBe('ok');
    expect(seen).toEqual(['Bearer 1', 'Bearer 2']);
  });

  it(`lets the answer stand after ${MAX_GATE_ROUNDS} rounds, however often the gate says again`, async () => {
    answer = (_req, res) => refuse(res, 'still no');
    const { gate, refusals } = counting(() => true);
    const response = await send(withGate(agent, gate, LIMIT), request());
    expect(response.status).toBe(401);
    expect(await readText(response, LIMIT, url, new AbortController().signal)).toBe('still no');
    expect(seen).toHaveLength(MAX_GATE_ROUNDS);
    expect(refusals).toHaveLength(MAX_GATE_ROUNDS - 1);
  });

  it('fails the request with what the gate throws, not as a connection error', async () => {
    answer = (_req, res) => refuse(res);
    const denied = new AuthorizationError('rejected', 'the server refused the token', { url });
    const gate: RequestGate = {
      headers: () => ({ authorization: 'Bearer fixed' }),
      refused: async () => {
        throw denied;
      },
    };
    await expect(send(withGate(agent, gate, LIMIT), request())).rejects.toBe(denied);
  });

  it('ends a request the moment its call is aborted while the gate is finding headers', async () => {
    answer = (_req, res) => res.end('ok');
    const asked = Promise.withResolvers<void>();
    // A gate that never answers and does not listen to the signal itself.
    const gate: RequestGate = {
      headers: () => {
        asked.resolve();
        return new Promise(() => {});
      },
      refused: async () => false,
    };
    const controller = new AbortController();
    const sent = send(withGate(agent, gate, LIMIT), request(controller.signal));
    await asked.promise;
    const reason = new Error('the call was cancelled');
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    expect(seen).toEqual([]);
  });

  it('ends a request the moment its call is aborted while the gate judges a refusal', async () => {
    answer = (_req, res) => refuse(res);
    const judging = Promise.withResolvers<void>();
    const gate: RequestGate = {
      headers: () => ({ authorization: 'Bearer fixed' }),
      refused: () => {
        judging.resolve();
        return new Promise(() => {});
      },
    };
    const controller = new AbortController();
    const sent = send(withGate(agent, gate, LIMIT), request(controller.signal));
    await judging.promise;
    const reason = new Error('the call was cancelled');
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
  });
});

describe('a refusal larger than maxResponseBytes', () => {
  /** A 401 whose body never ends: only a client that stops reading it gets an answer. */
  function endless(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(401, { 'www-authenticate': 'Bearer' });
    const chunk = Buffer.alloc(1024, 'x');
    const timer = setInterval(() => res.write(chunk), 1);
    res.on('close', () => clearInterval(timer));
    req.resume();
  }

  it('is cut off, not held, and fails as too large when the gate lets it stand', async () => {
    const closed: Promise<unknown>[] = [];
    answer = (req, res) => {
      closed.push(once(res, 'close'));
      endless(req, res);
    };
    const { gate, refusals } = counting(() => false);
    const error = await send(withGate(agent, gate, LIMIT), request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(LIMIT);
    // The gate still judged it, on its status and headers.
    expect(refusals.map((refusal) => refusal.status)).toEqual([401]);
    // The connection that carried it was closed by the client.
    await Promise.all(closed);
  });

  it('is cut off unread when its declared length is over the bound, and the gate may still send again', async () => {
    let written = 0;
    answer = (req, res) => {
      if (req.headers.authorization === 'Bearer 2') {
        res.end('ok');
        return;
      }
      res.writeHead(401, { 'content-length': String(1024 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const write = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
      };
      res.on('drain', write);
      write();
    };
    const { gate, refusals } = counting(() => true);
    const response = await send(withGate(agent, gate, LIMIT), request());
    expect(await readText(response, LIMIT, url, new AbortController().signal)).toBe('ok');
    expect(refusals).toHaveLength(1);
    expect(seen).toEqual(['Bearer 1', 'Bearer 2']);
    expect(written).toBeLessThan(1024 * 1024 * 1024);
  });
});
