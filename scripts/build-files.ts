// What every build of `npm run build` shares (scripts/build.ts): where the project and its three
// workspace packages are, what a build returns (its files with their sizes, gzipped too), listing
// and measuring a build's folder, and the `.d.ts` that tsc emits once per process for all of them.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The workspace packages' folders (package.json `workspaces`), by package name. */
export const PACKAGES = {
  'tryon-button': join(projectRoot, 'widget'),
  'tryon-proxy': join(projectRoot, 'proxy'),
  'tryon-sandbox': join(projectRoot, 'sandbox'),
} as const;
export type PackageName = keyof typeof PACKAGES;

export interface BuiltFile {
  /** Path relative to the build's outDir, with forward slashes. */
  file: string;
  bytes: number;
  /** Size after gzip -9, what a CDN sends. */
  gzip: number;
}

export interface BuildResult {
  outDir: string;
  files: BuiltFile[];
}

export interface BuildOptions {
  outDir?: string;
  quiet?: boolean;
  /** The element's entry module; tests point it elsewhere. Default widget/tryon-button.ts. */
  entry?: string;
}

/** Every file below `dir`, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(path)));
    else found.push(path);
  }
  return found.sort();
}

export async function measure(outDir: string): Promise<BuiltFile[]> {
  const files: BuiltFile[] = [];
  for (const path of await listFiles(outDir)) {
    const bytes = await readFile(path);
    files.push({
      file: relative(outDir, path).split('\\').join('/'),
      bytes: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
    });
  }
  return files;
}

export async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    execFile(command, args, { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${[command, ...args].join(' ')} failed:\n${stdout}${stderr}`));
      else resolveRun();
    });
  });
}

let declarations: Promise<string> | undefined;

/** `.d.ts` for the widget and the proxy, emitted once per process by tsc -p tsconfig.build.json. */
export function emitDeclarations(): Promise<string> {
  declarations ??= (async () => {
    // A folder of this process's own: builds in parallel (tests, the demo, a developer) never
    // read each other's half-written declarations.
    const typesDir = await mkdtemp(join(tmpdir(), 'tryon-types-'));
    process.once('exit', () => rmSync(typesDir, { recursive: true, force: true }));
    await run(process.execPath, [
      join(projectRoot, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      typesDir,
    ]);
    return typesDir;
  })();
  declarations.catch(() => {
    declarations = undefined;
  });
  return declarations;
}

export async function copyDeclarations(
  from: string,
  to: string,
  keep: (file: string) => boolean = () => true,
): Promise<void> {
  for (const path of await listFiles(from)) {
    const file = relative(from, path);
    if (!path.endsWith('.d.ts') || !keep(file)) continue;
    await mkdir(dirname(join(to, file)), { recursive: true });
    await cp(path, join(to, file));
  }
}
