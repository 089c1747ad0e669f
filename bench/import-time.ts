/**
 * Import time in a fresh process: milliseconds to `import()` a client's modules, the cost a
 * program pays at start-up. Prints the number.
 *
 * Usage: node --conditions=@toolwire/source bench/import-time.ts <client-id>
 */
import { CLIENTS } from './modules.ts';

const entry = CLIENTS.find((client) => client.id === process.argv[2]);
if (!entry) throw new Error('usage: import-time.ts <client-id>');
const t0 = performance.now();
for (const specifier of entry.modules) await import(specifier);
process.stdout.write(`${performance.now() - t0}\n`);
