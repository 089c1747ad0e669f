/**
 * The deprecated HTTP+SSE transport of MCP 2024-11-05, for servers that never moved on: the
 * stateful dialect over the HTTP+SSE channel (wire/channels/http-sse.ts), under a name of its own.
 */

import type { Deadline } from '../../core/deadline.ts';
import type { ChannelEvents } from '../../wire/channels/channel.ts';
import type { HttpSessionConfig } from '../../wire/channels/http-session/session.ts';
import { HttpSseChannel } from '../../wire/channels/http-sse.ts';
import type { Dialect } from '../dialect.ts';
import { type StatefulConfig, StatefulDialect } from '../mcp-stateful/index.ts';

/** The legacy handshake's configuration, and where and how to reach the server. */
export type SseConfig = StatefulConfig & HttpSessionConfig;

/** Opens the stream and the session on it: `initialize`, then `notifications/initialized`. */
export function connectSse(
  config: SseConfig,
  events: ChannelEvents,
  deadline: Deadline,
): Promise<Dialect> {
  const channel = new HttpSseChannel(config);
  return StatefulDialect.connect({ ...config, name: 'mcp-sse' }, channel, events, deadline);
}
