/**
 * The resources the MCP conformance suite's server scenarios read and subscribe to by URI
 * (resources-*), with the contents their "Server Implementation Requirements" give.
 */
import type { JsonObject } from '../jsonrpc.ts';
import { PNG_BASE64 } from '../media.ts';

const STATIC_TEXT_URI = 'test://static-text';
const STATIC_BINARY_URI = 'test://static-binary';
const WATCHED_URI = 'test://watched-resource';
const DATA_TEMPLATE = 'test://template/{id}/data';
const DATA_PATTERN = /^test:\/\/template\/([^/]+)\/data$/;

/** The conformance resources resources/list shows, after the regular fixtures. */
export const CONFORMANCE_RESOURCES: readonly JsonObject[] = [
  {
    uri: STATIC_TEXT_URI,
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
  },
  {
    uri: STATIC_BINARY_URI,
    name: 'static-binary',
    description: 'A static binary resource (a 1x1 PNG).',
    mimeType: 'image/png',
  },
  {
    uri: WATCHED_URI,
    name: 'watched-resource',
    description: 'A text resource that can be subscribed to.',
    mimeType: 'text/plain',
  },
];

/** The conformance resource template, after the regular one. */
export const CONFORMANCE_TEMPLATES: readonly JsonObject[] = [
  {
    uriTemplate: DATA_TEMPLATE,
    name: 'template-data',
    description: 'JSON data for any id; the id is substituted into the content.',
    mimeType: 'application/json',
  },
];

/** The contents of a conformance resource, or undefined when `uri` names none. */
export function conformanceContents(uri: string): JsonObject | undefined {
  switch (uri) {
    case STATIC_TEXT_URI:
      return {
        uri,
        mimeType: 'text/plain',
        text: 'This is the content of the static text resource.',
      };
    case STATIC_BINARY_URI:
      return { uri, mimeType: 'image/png', blob: PNG_BASE64 };
    case WATCHED_URI:
      return { uri, mimeType: 'text/plain', text: 'Watched resource content' };
  }
  const id = DATA_PATTERN.exec(uri)?.[1];
  if (id === undefined) return undefined;
  const data = { id, templateTest: true, data: `Data for ID: ${id}` };
  return { uri, mimeType: 'application/json', text: JSON.stringify(data) };
}
