/**
 * The official v2 server's stdio entry point (`serveStdio` from `@modelcontextprotocol/server/stdio`)
 * with the same tools as the HTTP one, as its own program: `node v2-stdio-server.ts [modern-only]`.
 * Dual-era as it comes; `modern-only` is `legacy: 'reject'`.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { buildV2Server } from './v2-server.ts';

serveStdio(() => buildV2Server(), {
  legacy: process.argv.includes('modern-only') ? 'reject' : 'serve',
});
