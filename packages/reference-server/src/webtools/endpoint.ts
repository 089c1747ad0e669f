/**
 * A Webtools endpoint (seed 004, "Webtools") at `/webtools/weather`: `GET /` gives the latest
 * metadata, `GET /{version}` a given version's, `POST /` runs an action. Every answer is JSON;
 * errors are `{ status: "error", error: { code, message } }` with a matching HTTP status.
 * Locations trigger the failures a client must handle: `Atlantis` an INTERNAL_ERROR, `Busytown`
 * a RATE_LIMIT every time, `Queueville` a RATE_LIMIT on a session's first call only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http-util.ts';
import { isObject, type JsonObject } from '../jsonrpc.ts';
import { parseJson, readBody } from '../post.ts';
import { checkArguments } from '../schema-check.ts';
import type { ReceivedRequest } from '../types.ts';
import { LATEST, run, VERSIONS } from './weather.ts';

export const WEBTOOL_PATH = '/webtools/weather';

function refuse(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { status: 'error', error: { code, message } }, headers);
}

export class WebtoolsEndpoint {
  /** Sessions that have already been rate-limited once (for `Queueville`). */
  readonly #limited = new Set<string>();

  handles(path: string): boolean {
    return path === '/webtools' || path.startsWith('/webtools/');
  }

  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    entry: ReceivedRequest,
    path: string,
  ): Promise<void> {
    if (path !== WEBTOOL_PATH && !path.startsWith(`${WEBTOOL_PATH}/`)) {
      refuse(res, 404, 'WEBTOOL_NOT_FOUND', 'No such webtool');
      return;
    }
    const rest = path.slice(WEBTOOL_PATH.length).replace(/^\/+|\/+$/g, '');
    if (req.method === 'GET') {
      const version = rest === '' ? LATEST : decodeURIComponent(rest);
      const metadata = VERSIONS[version];
      if (metadata) sendJson(res, 200, metadata);
      else refuse(res, 404, 'WEBTOOL_NOT_FOUND', `Version ${version} does not exist`);
      return;
    }
    if (req.method !== 'POST' || rest !== '') {
      refuse(res, 405, 'METHOD_NOT_ALLOWED', 'Use GET for metadata and POST / to run an action', {
        allow: rest === '' ? 'GET, POST' : 'GET',
      });
      return;
    }
    const body = await readBody(req);
    const parsed = body === undefined ? undefined : parseJson(body);
    entry.body = parsed?.value;
    this.#execute(res, parsed?.value);
  }

  clear(): void {
    this.#limited.clear();
  }

  #execute(res: ServerResponse, body: unknown): void {
    if (!isObject(body) || typeof body['action'] !== 'string' || !isObject(body['request'])) {
      refuse(res, 400, 'SCHEMA_ERROR', 'The body needs an "action" string and a "request" object');
      return;
    }
    const version = body['version'] === undefined ? LATEST : String(body['version']);
    const metadata = VERSIONS[version];
    if (!metadata) {
      refuse(res, 404, 'WEBTOOL_NOT_FOUND', `Version ${version} does not exist`);
      return;
    }
    const actions = metadata['actions'] as JsonObject[];
    const action = actions.find((candidate) => candidate['name'] === body['action']);
    if (!action) {
      refuse(
        res,
        400,
        'UNKNOWN_ACTION',
        `Version ${version} has no action "${String(body['action'])}"`,
      );
      return;
    }
    if (body['config'] !== undefined && !isObject(body['config'])) {
      refuse(res, 400, 'CONFIG_ERROR', 'config must be an object');
      return;
    }
    const config = {
      ...(metadata['defaultConfig'] as JsonObject),
      ...(body['config'] as JsonObject | undefined),
    };
    const configProblem = checkArguments(metadata['configSchema'] as JsonObject, config);
    if (configProblem) {
      refuse(res, 400, 'CONFIG_ERROR', configProblem.replace('argument', 'config field'));
      return;
    }
    const request = body['request'];
    const problem = checkArguments(action['requestSchema'] as JsonObject, request);
    if (problem) {
      refuse(res, 400, 'SCHEMA_ERROR', `Validation failed: ${problem}`);
      return;
    }
    const location = String(request['location']);
    const session = typeof body['sessionId'] === 'string' ? body['sessionId'] : '';
    if (location === 'Busytown' || (location === 'Queueville' && !this.#limited.has(session))) {
      this.#limited.add(session);
      refuse(res, 429, 'RATE_LIMIT', 'Too many requests', { 'retry-after': '0' });
      return;
    }
    if (location === 'Atlantis') {
      refuse(res, 500, 'INTERNAL_ERROR', 'The weather service is unavailable');
      return;
    }
    sendJson(res, 200, {
      status: 'ok',
      data: run(version, String(body['action']), request, config),
    });
  }
}
