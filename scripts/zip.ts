// A zip archive of a folder, written with node:zlib (no zip program needed on the machine): what
// WordPress's "Upload Plugin" screen and Shopify's tooling read. Deflated entries, forward slashes,
// one top-level folder (the archive's `root`), directories listed as their own entries as
// Info-ZIP writes them, file modes kept (so a shell script stays executable).
import { readFile, stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { listFiles } from './build-files.js';

interface Entry {
  name: string;
  data: Buffer;
  compressed: Buffer;
  crc: number;
  mode: number;
  method: 0 | 8;
}

/** DOS date and time of a fixed moment, so the same files always make the same archive (checksums). */
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;

/** Zips every file below `dir` under the folder name `root`, and returns the archive's bytes. */
export async function zipFolder(dir: string, root: string): Promise<Buffer> {
  const entries: Entry[] = [];
  const folders = new Set<string>([`${root}/`]);
  for (const path of await listFiles(dir)) {
    const name = `${root}/${relative(dir, path).split('\\').join('/')}`;
    for (let i = name.indexOf('/'); i !== -1 && i < name.length - 1; i = name.indexOf('/', i + 1))
      folders.add(name.slice(0, i + 1));
    const data = await readFile(path);
    const deflated = deflateRawSync(data, { level: 9 });
    const stored = deflated.length >= data.length;
    entries.push({
      name,
      data,
      compressed: stored ? data : deflated,
      crc: crc32(data),
      mode: (await stat(path)).mode & 0o777,
      method: stored ? 0 : 8,
    });
  }
  const all: Entry[] = [
    ...[...folders].sort().map((name) => ({
      name,
      data: Buffer.alloc(0),
      compressed: Buffer.alloc(0),
      crc: 0,
      mode: 0o40755,
      method: 0 as const,
    })),
    ...entries.sort((a, b) => a.name.localeCompare(b.name)),
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of all) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, entry.compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the external attributes carry the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.compressed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    const isFolder = entry.name.endsWith('/');
    const mode = isFolder ? 0o40755 : 0o100000 | entry.mode;
    central.writeUInt32LE(((mode << 16) | (isFolder ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + entry.compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(all.length, 8);
  end.writeUInt16LE(all.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
