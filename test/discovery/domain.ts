/**
 * A local "domain" for discovery tests: documents by path, each with its status, headers and
 * body, and a log of every request (path and headers) to see what the client asked for.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Doc {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Answers a 304 when If-None-Match names this tag. */
  etag?: string;
}

export interface Domain {
  origin: string;
  docs: Map<string, Doc | ((headers: IncomingHttpHeaders) => Doc)>;
  log: { path: string; headers: IncomingHttpHeaders; status: number }[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function startDomain(): Promise<Domain> {
  const docs: Domain['docs'] = new Map();
  const log: Domain['log'] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const found = docs.get(path);
    const doc = typeof found === 'function' ? found(request.headers) : found;
    let status = doc ? (doc.status ?? 200) : 404;
    const headers: Record<string, string> = { ...doc?.headers };
    if (doc?.etag) {
      headers['etag'] = doc.etag;
      if (request.headers['if-none-match'] === doc.etag) status = 304;
    }
    log.push({ path, headers: request.headers, status });
    if (status === 304 || !doc || doc.body === undefined) {
      response.writeHead(status, headers).end();
      return;
    }
    const body = typeof doc.body === 'string' ? doc.body : JSON.stringify(doc.body);
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${port}`, docs, log, close, [Symbol.asyncDispose]: close };
}
