import { crc32, deflateSync } from 'node:zlib';

/*
 * The media fixtures are built from their format definitions rather than pasted as opaque
 * base64, so anyone can see why they are valid: a 1x1 PNG and a short silent WAV.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function onePixelPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // colour type: RGBA
  // compression, filter and interlace methods stay 0
  const scanline = Buffer.from([0, 0x2a, 0x7f, 0xd4, 0xff]); // filter byte, then one RGBA pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function silentWav(): Buffer {
  const sampleRate = 8000;
  const samples = Buffer.alloc(8, 128); // unsigned 8-bit PCM: 128 is silence
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate, 28); // byte rate = rate * channels * bytes per sample
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** A valid 1x1 RGBA PNG, base64-encoded. */
export const PNG_BASE64 = onePixelPng().toString('base64');

/** A valid 1 ms mono 8-bit 8 kHz silent WAV, base64-encoded. */
export const WAV_BASE64 = silentWav().toString('base64');
