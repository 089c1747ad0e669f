/** The `toolwire` command. */
import { EXIT } from './exit-codes.ts';
import { main } from './main.ts';

// A reader that stops early (`toolwire inspect URL | head`) closes the pipe: not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
  });
}

process.exitCode = await main(process.argv.slice(2));
