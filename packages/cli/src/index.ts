/**
 * @toolwire/cli: the `toolwire` command, and the pieces a program may reuse: `main` runs the
 * command line in-process, `readMcpConfig` reads the `mcpServers` files editors keep.
 */
export { EXIT, type ExitCode } from './exit-codes.ts';
export { main } from './main.ts';
export {
  type HttpServer,
  parseMcpConfig,
  pickServer,
  type ReadOptions,
  readMcpConfig,
  type ServerEntry,
  type StdioServer,
} from './mcp-config.ts';
