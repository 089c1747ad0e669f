/**
 * Where a webtool's requests go and what they are sent with: the endpoint's URLs, and the HTTP
 * settings the metadata fetch and the executions share.
 */
import type { Dispatcher } from 'undici';
import type { RetryPolicy } from '../../core/types.ts';

export interface HttpConfig {
  url: string;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  maxResponseBytes: number;
  retry: RetryPolicy;
}

/** `{url}/{segment}`: one slash between, the query string kept. */
export function webtoolUrl(url: string, segment = ''): string {
  const parsed = new URL(url);
  parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/${encodeURIComponent(segment)}`;
  return parsed.href;
}
