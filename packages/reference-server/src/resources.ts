import { viewContents } from './apps.ts';
import {
  CONFORMANCE_RESOURCES,
  CONFORMANCE_TEMPLATES,
  conformanceContents,
} from './conformance/resources.ts';
import type { RequestContext } from './context.ts';
import { ErrorCode, type JsonObject, RpcError } from './jsonrpc.ts';
import { pageResult, paginate } from './pagination.ts';
import { skillFileContents } from './skills.ts';
import type { FixtureState } from './state.ts';

/** A plain-text resource that never changes. */
export const HELLO_URI = 'ref://static/hello';
/** The text of {@link HELLO_URI}. */
export const HELLO_TEXT = 'hello, world';
/** A text resource holding a number that the `bump` tool raises; subscribable. */
export const COUNTER_URI = 'ref://counter';
/** The one resource template: any positive integer id is readable. */
export const ITEM_TEMPLATE = 'ref://items/{id}';
/** How many item resources resources/list shows (the template serves any positive id). */
export const LISTED_ITEMS = 12;

const BLOB_URI = 'ref://static/blob';
const ITEM_PATTERN = /^ref:\/\/items\/([1-9][0-9]*)$/;

function itemUri(id: number): string {
  return `ref://items/${id}`;
}

function listedResources(fixtures: FixtureState): JsonObject[] {
  const resources: JsonObject[] = [
    { uri: HELLO_URI, name: 'hello', description: 'A static greeting.', mimeType: 'text/plain' },
    {
      uri: BLOB_URI,
      name: 'blob',
      description: 'Sixteen bytes, 0 to 15.',
      mimeType: 'application/octet-stream',
      size: 16,
    },
    {
      uri: COUNTER_URI,
      name: 'counter',
      description: 'A number the bump tool increments; subscribe to hear about changes.',
      mimeType: 'text/plain',
    },
  ];
  for (let id = 1; id <= LISTED_ITEMS; id++) {
    resources.push({ uri: itemUri(id), name: `item ${id}`, mimeType: 'text/plain' });
  }
  if (fixtures.conformance) resources.push(...CONFORMANCE_RESOURCES);
  return resources;
}

/** The contents of `uri`, or undefined when no such resource exists. */
function contentsOf(uri: string, ctx: RequestContext): JsonObject | undefined {
  const { fixtures } = ctx;
  switch (uri) {
    case HELLO_URI:
      return { uri, mimeType: 'text/plain', text: HELLO_TEXT };
    case BLOB_URI:
      return {
        uri,
        mimeType: 'application/octet-stream',
        blob: Buffer.from(Array.from({ length: 16 }, (_, byte) => byte)).toString('base64'),
      };
    case COUNTER_URI:
      return { uri, mimeType: 'text/plain', text: String(fixtures.counter) };
  }
  const item = ITEM_PATTERN.exec(uri);
  if (item !== null) return { uri, mimeType: 'text/plain', text: `item ${item[1]}` };
  const view = viewContents(uri);
  if (view !== undefined) return view;
  const skillFile = skillFileContents(uri, ctx);
  if (skillFile !== undefined) return skillFile;
  return fixtures.conformance ? conformanceContents(uri) : undefined;
}

function uriParam(params: JsonObject): string {
  if (typeof params['uri'] !== 'string')
    throw new RpcError(ErrorCode.InvalidParams, 'uri must be a string');
  return params['uri'];
}

function notFound(uri: string): RpcError {
  return new RpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
}

/** `resources/list`. */
export function listResources(params: JsonObject, ctx: RequestContext): JsonObject {
  const page = paginate('resources', listedResources(ctx.fixtures), params, ctx.fixtures.pageSize);
  return pageResult('resources', page);
}

/** `resources/templates/list`. */
export function listResourceTemplates(params: JsonObject, ctx: RequestContext): JsonObject {
  const templates: JsonObject[] = [
    {
      uriTemplate: ITEM_TEMPLATE,
      name: 'item',
      description: 'Item number {id}, for any positive integer id.',
      mimeType: 'text/plain',
    },
  ];
  if (ctx.fixtures.conformance) templates.push(...CONFORMANCE_TEMPLATES);
  const page = paginate('resourceTemplates', templates, params, ctx.fixtures.pageSize);
  return pageResult('resourceTemplates', page);
}

/** `resources/read`; an unknown URI is -32002 with the URI in `data`. */
export function readResource(params: JsonObject, ctx: RequestContext): JsonObject {
  const uri = uriParam(params);
  const contents = contentsOf(uri, ctx);
  if (contents === undefined) throw notFound(uri);
  return { contents: [contents] };
}

/** `resources/subscribe`: the caller hears `notifications/resources/updated` for this URI. */
export function subscribe(params: JsonObject, ctx: RequestContext): JsonObject {
  const uri = uriParam(params);
  if (contentsOf(uri, ctx) === undefined) throw notFound(uri);
  ctx.session?.subscriptions.add(uri);
  return {};
}

/** `resources/unsubscribe`. */
export function unsubscribe(params: JsonObject, ctx: RequestContext): JsonObject {
  ctx.session?.subscriptions.delete(uriParam(params));
  return {};
}
