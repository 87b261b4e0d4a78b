/**
 * The files inside a .vsix (a zip), read from its central directory: what the package test
 * and the publishing test look into.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/** The entries of a zip file, from its central directory. */
export function zipEntries(file: string): Map<string, Buffer> {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(offset + 10);
    const compressed = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extra = zip.readUInt16LE(offset + 30);
    const comment = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : data);
    offset += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** The files of the extension itself (under extension/), by their path in it. */
export function extensionFiles(file: string): string[] {
  return [...zipEntries(file).keys()].filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length)).sort();
}
